"""Mutants of a game's modules: the edit, the mutated source, its diff and its rule IDs.

A mutant's **rules** are the rule IDs its code cites: those in the docstring, comments
and strings (refusal messages) of the innermost enclosing function that cites any, else
of its class, else of the module docstring. Only IDs the game's scenario files list in
``spec_rules`` count (when they list any), so ``a2`` or ``K4`` in prose is not taken for
a rule by mistake. A mutant whose code cites no rule is reported under ``(none)``.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from tabletop.core.i18n.text import Domain
from tabletop.kit.mutation.operators import Edit, apply_edit, find_edits

_ = Domain("tabletop")

RULE_WORD = re.compile(r"(?<![\w.])[A-Z]{1,3}\d+(?:\.\d+)*(?![\w]|\.\d)")


def shown_path(path: Path) -> str:
    """A path relative to the current folder when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Mutant:
    """One mutation of one module."""

    number: int
    module: str  # import name, e.g. tabletop_quarto.rules
    path: Path
    edit: Edit
    function: str  # qualified name of the enclosing function, or "(module)"
    rules: tuple[str, ...]
    body_lines: tuple[int, int] | None  # the enclosing function's body lines (for reach)

    @property
    def line(self) -> int:
        """The line the mutation is on."""
        return self.edit.line

    @property
    def short(self) -> str:
        """``rules.py:42`` (the module's file name and line)."""
        return f"{self.path.name}:{self.line}"

    def source(self, original: str) -> str:
        """The mutated source of the module."""
        return apply_edit(original, self.edit)

    def diff(self, original: str, shown: Callable[[str], str] = str) -> str:
        """A unified diff of the mutation, 1 line of context, file names as the path (a
        configuration mutant, which changes no source: its one line of change); its words
        (English) passed through ``shown`` (``translate``: in the reader's language)."""
        if self.edit.operator == "config":
            where = f"{shown_path(self.path)}:{self.line}" if self.line else shown_path(self.path)
            change = self.edit.description
            return shown(_("configuration of {where}: {change}", where=where, change=change)) + "\n"
        lines = difflib.unified_diff(
            original.splitlines(keepends=True),
            self.source(original).splitlines(keepends=True),
            shown_path(self.path),
            shown(_("{path} (mutant #{number})", path=shown_path(self.path), number=self.number)),
            n=1,
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True)
class _Scope:
    name: str
    first: int
    body: int  # the first line of the body (the ``def`` line itself runs at import)
    last: int
    rules: tuple[str, ...]
    function: bool


def _comments(text: str) -> dict[int, str]:
    found: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                found[tok.start[0]] = tok.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _cited(node: ast.AST, comments: dict[int, str], known: Collection[str]) -> tuple[str, ...]:
    words: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            words.append(sub.value)
    first, last = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    words.extend(text for line, text in comments.items() if first <= line <= last)
    ids: list[str] = []
    for word in words:
        for rule in RULE_WORD.findall(word):
            if (not known or rule in known) and rule not in ids:
                ids.append(rule)
    return tuple(ids)


def _scopes(tree: ast.Module, comments: dict[int, str], known: Collection[str]) -> list[_Scope]:
    scopes: list[_Scope] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                function = not isinstance(child, ast.ClassDef)
                last = child.end_lineno or child.lineno
                cited = _cited(child, comments, known)
                body = child.body[0].lineno
                scopes.append(_Scope(name, child.lineno, body, last, cited, function))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return scopes


def module_mutants(
    module: str, path: Path, text: str, known_rules: Collection[str] = (), first: int = 1
) -> list[Mutant]:
    """Every mutant of one module's source that still compiles, numbered from ``first``."""
    tree = ast.parse(text)
    comments = _comments(text)
    scopes = _scopes(tree, comments, known_rules)
    doc = ast.get_docstring(tree) or ""
    module_rules = tuple(
        r for r in dict.fromkeys(RULE_WORD.findall(doc)) if not known_rules or r in known_rules
    )
    mutants: list[Mutant] = []
    for edit in find_edits(text):
        try:
            compile(apply_edit(text, edit), str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue
        around = [s for s in scopes if s.first <= edit.line <= s.last]  # outermost first
        functions = [s for s in around if s.function]
        rules = next((s.rules for s in reversed(around) if s.rules), module_rules)
        name = functions[-1].name if functions else "(module)"
        body = (functions[-1].body, functions[-1].last) if functions else None
        mutants.append(Mutant(first + len(mutants), module, path, edit, name, rules, body))
    return mutants
