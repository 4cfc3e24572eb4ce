"""Mutation operators: small, readable changes to a module's source, found with ``ast``.

Each :class:`Edit` replaces one span of the source text (byte offsets of the UTF-8
source) with new text, so a mutant differs from the original by exactly that span and
its unified diff is one or two lines. The operators, each named in reports:

=============  =====================================================================
``compare``    a comparison's boundary or sense flipped: ``<``→``<=``, ``==``→``!=``,
               ``in``→``not in``, ``is``→``is not`` (and back)
``arith``      an operator swapped: ``+``↔``-``, ``*``↔``//``, ``%``→``//``,
               ``&``↔``|``, ``^``→``|``, ``<<``↔``>>`` (the next player's ``% n``,
               ``+ 1``, a bit mask); also in ``x += 1``
``number``     a whole-number constant off by one (``n+1``; ``n-1`` when ``n > 0``;
               a negative literal ``-n`` becomes ``-n+1``: ``-1`` → ``0``)
``bool``       ``True``↔``False``
``logic``      ``and``↔``or``
``drop``       one operand of ``and``/``or`` dropped (a condition removed)
``not``        a ``not`` removed; a unary minus removed
``negate``     an ``if``/``elif``/``while``/conditional/comprehension condition negated
``branch``     an ``if`` condition made ``True`` (its ``else`` removed) or ``False``
               (its body removed)
``return``     ``return x`` made ``return None``
``statement``  ``x += ...`` or a call statement removed (``pass``); ``break``↔``continue``
``call``       ``min``↔``max``, ``any``↔``all``
=============  =====================================================================

Never mutated: docstrings and other strings, f-strings, type annotations, decorators,
``raise`` and ``assert`` statements (messages and invariants, not rules), the
``if TYPE_CHECKING:`` block, ``__all__``, and any line that says ``# pragma: no mutate``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")  # an edit's description is a message; its operator a machine name

COMPARE: dict[type[ast.cmpop], str] = {
    ast.Lt: "<=",
    ast.LtE: "<",
    ast.Gt: ">=",
    ast.GtE: ">",
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.In: "not in",
    ast.NotIn: "in",
    ast.Is: "is not",
    ast.IsNot: "is",
}
ARITH: dict[type[ast.operator], tuple[str, str]] = {
    ast.Add: ("+", "-"),
    ast.Sub: ("-", "+"),
    ast.Mult: ("*", "//"),
    ast.FloorDiv: ("//", "*"),
    ast.Div: ("/", "*"),
    ast.Mod: ("%", "//"),
    ast.BitAnd: ("&", "|"),
    ast.BitOr: ("|", "&"),
    ast.BitXor: ("^", "|"),
    ast.LShift: ("<<", ">>"),
    ast.RShift: (">>", "<<"),
}
CMP_TEXT = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
CALLS = {"min": "max", "max": "min", "any": "all", "all": "any"}
NO_MUTATE = "pragma: no mutate"


@dataclass(frozen=True)
class Edit:
    """Replace bytes ``start:end`` of the source with ``text``; ``line`` is where it is."""

    start: int
    end: int
    text: str
    line: int
    operator: str
    description: str


class _Source:
    """The source as bytes, with byte offsets for (line, col) AST positions."""

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8")
        self.starts = [0]
        for line in self.data.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.lines = text.splitlines()

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.offset(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8")

    def token(self, start: int, end: int, word: str) -> tuple[int, int] | None:
        """The first occurrence of operator ``word`` as a whole token in ``start:end``."""
        gap = self.text(start, end)
        if word.isalpha() or " " in word:
            pattern = r"(?<![\w])" + r"\s+".join(map(re.escape, word.split())) + r"(?![\w])"
        else:
            pattern = r"(?<![<>=!*/%&|^+\-])" + re.escape(word) + r"(?![<>=*/])"
        found = re.search(pattern, gap)
        if found is None:
            return None
        before = len(gap[: found.start()].encode("utf-8"))
        return start + before, start + before + len(found.group().encode("utf-8"))


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """ids of nodes whose subtrees are never mutated."""
    skip: set[int] = set()

    def whole(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            whole(node.returns)
            for arg in [*node.args.args, *node.args.posonlyargs, *node.args.kwonlyargs]:
                whole(arg.annotation)
            for extra in (node.args.vararg, node.args.kwarg):
                whole(extra.annotation if extra else None)
            for decorator in node.decorator_list:
                whole(decorator)
        elif isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                whole(decorator)
            for base in [*node.bases, *node.keywords]:
                whole(base)
        elif isinstance(node, ast.AnnAssign):
            whole(node.annotation)
        elif _never(node):
            whole(node)
    return skip


def _never(node: ast.AST) -> bool:
    """Messages, invariants, typing-only code, docstrings, ``__all__``."""
    if isinstance(node, ast.Raise | ast.Assert | ast.JoinedStr):
        return True
    if isinstance(node, ast.If):
        return _is_type_checking(node.test)
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)  # docstrings and bare strings
    if isinstance(node, ast.Subscript):
        return _is_typing(node.value)  # cast(tuple[int, ...], x), type alias values
    return False


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_typing(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in {
        "tuple", "list", "dict", "set", "frozenset", "Literal", "Callable", "type",
    }  # fmt: skip


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
    )


def find_edits(text: str) -> list[Edit]:
    """Every mutation of module source ``text``, in source order."""
    tree = ast.parse(text)
    src = _Source(text)
    skip = _skipped_nodes(tree)
    # -1 is one number: its digits are not mutated apart from its sign
    skip.update(
        id(n.operand) for n in ast.walk(tree) if isinstance(n, ast.UnaryOp) and _negative(n)
    )
    quiet = {n for n, line in enumerate(src.lines, start=1) if NO_MUTATE in line}
    edits = [
        edit
        for node in ast.walk(tree)
        if id(node) not in skip
        for edit in _edits(node, src)
        if edit.line not in quiet
    ]
    return sorted(edits, key=lambda e: (e.start, e.end, e.operator, e.text))


def _edits(node: ast.AST, src: _Source) -> Iterator[Edit]:
    if isinstance(node, ast.Compare):
        yield from _compare(node, src)
    elif isinstance(node, ast.BinOp):
        if not (_is_text(node.left) or _is_text(node.right)):
            yield from _binop(node.left, node.right, node.op, node.lineno, src)
    elif isinstance(node, ast.AugAssign):
        yield from _binop(node.target, node.value, node.op, node.lineno, src, augmented=True)
        yield _replace(node, src, "pass", "statement", _("statement removed"))
    elif isinstance(node, ast.BoolOp):
        yield from _boolop(node, src)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        if _negative(node):  # -1 → 0: a sentinel made a real index, not -2, an equal sentinel
            number = -node.operand.value  # type: ignore[attr-defined]
            shown = str(number + 1)
            yield _replace(node, src, shown, "number", f"{_text(node, src)} → {shown}")
        yield _replace(node, src, _text(node.operand, src), "not", _("unary operator removed"))
    elif isinstance(node, ast.Constant):
        yield from _constant(node, src)
    elif isinstance(node, ast.If | ast.While | ast.IfExp):
        yield from _condition(node.test, src, branch=isinstance(node, ast.If))
    elif isinstance(node, ast.comprehension):
        for test in node.ifs:
            yield from _condition(test, src, branch=False)
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):
            yield _replace(node, src, "return None", "return", _("returns None"))
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield _replace(node, src, "pass", "statement", _("call removed"))
    elif isinstance(node, ast.Break | ast.Continue):
        other = "continue" if isinstance(node, ast.Break) else "break"
        yield _replace(node, src, other, "statement", _("{word} instead", word=other))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS:
        other = CALLS[node.func.id]
        yield _replace(node.func, src, other, "call", f"{node.func.id} → {other}")


def _negative(node: ast.AST) -> bool:
    """A negative whole-number literal such as ``-1``."""
    return (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    )


def _text(node: ast.AST, src: _Source) -> str:
    return src.text(*src.span(node))


def _replace(node: ast.AST, src: _Source, text: str, operator: str, description: str) -> Edit:
    start, end = src.span(node)
    return Edit(start, end, text, node.lineno, operator, description)  # type: ignore[attr-defined]


def _compare(node: ast.Compare, src: _Source) -> Iterator[Edit]:
    left: ast.expr = node.left
    for op, right in zip(node.ops, node.comparators, strict=True):
        found = src.token(src.span(left)[1], src.span(right)[0], CMP_TEXT[type(op)])
        if found:
            new = COMPARE[type(op)]
            description = f"{CMP_TEXT[type(op)]} → {new}"
            yield Edit(*found, new, node.lineno, "compare", description)
        left = right


def _binop(
    left: ast.AST,
    right: ast.AST,
    op: ast.operator,
    line: int,
    src: _Source,
    augmented: bool = False,
) -> Iterator[Edit]:
    if type(op) not in ARITH:
        return
    old, new = ARITH[type(op)]
    if augmented:
        old, new = old + "=", new + "="
    found = src.token(src.span(left)[1], src.span(right)[0], old)
    if found:
        yield Edit(*found, new, line, "arith", f"{old} → {new}")


def _boolop(node: ast.BoolOp, src: _Source) -> Iterator[Edit]:
    word, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
    spans = [src.span(v) for v in node.values]
    for index in range(len(spans) - 1):
        found = src.token(spans[index][1], spans[index + 1][0], word)
        if found:
            yield Edit(*found, other, node.lineno, "logic", f"{word} → {other}")
    start, end = src.span(node)
    for index, value in enumerate(node.values):
        rest = [src.text(*s) for i, s in enumerate(spans) if i != index]
        joined = f" {word} ".join(rest)
        if len(rest) == 1 and not src.text(start, end).startswith("("):
            joined = f"({joined})"
        shown = _text(value, src)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        said = _("condition dropped: {code}", code=shown)
        yield Edit(start, end, joined, value.lineno, "drop", said)


def _constant(node: ast.Constant, src: _Source) -> Iterator[Edit]:
    value = node.value
    if isinstance(value, bool):
        yield _replace(node, src, str(not value), "bool", f"{value} → {not value}")
    elif isinstance(value, int):
        original = _text(node, src)
        for new in (value + 1, value - 1) if value > 0 else (value + 1,):
            shown = hex(new) if original.lower().startswith("0x") else str(new)
            yield _replace(node, src, shown, "number", f"{original} → {shown}")


def _condition(test: ast.expr, src: _Source, branch: bool) -> Iterator[Edit]:
    if isinstance(test, ast.Constant):
        return
    yield _replace(test, src, f"not ({_text(test, src)})", "negate", _("condition negated"))
    if branch:
        yield _replace(test, src, "True", "branch", _("condition always true (else removed)"))
        yield _replace(test, src, "False", "branch", _("condition always false (body removed)"))


def apply_edit(text: str, edit: Edit) -> str:
    """The source with one edit made."""
    data = text.encode("utf-8")
    return (data[: edit.start] + edit.text.encode("utf-8") + data[edit.end :]).decode("utf-8")
