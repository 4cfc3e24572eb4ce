"""The plugin manager: finds game plugins through entry points and registers them.

Built-in games are ordinary entry points of this distribution, loaded exactly like
a third-party plugin. ``TABLETOP_DISABLE_PLUGINS=id1,id2`` skips entry points by
name (for tests and for bisecting a broken plugin).
"""

from __future__ import annotations

import os
from types import ModuleType

import pluggy

from tabletop import hookspecs
from tabletop.core.errors import TabletopError
from tabletop.core.i18n.text import Domain

_ = Domain("tabletop")


def plugin_manager(extra: list[ModuleType | object] | None = None) -> pluggy.PluginManager:
    """A fresh manager with every installed ``tabletop`` entry point plus ``extra`` plugins."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    disabled = {name.strip() for name in os.environ.get("TABLETOP_DISABLE_PLUGINS", "").split(",")}
    for name in disabled - {""}:
        pm.set_blocked(name)
    try:
        pm.load_setuptools_entrypoints(hookspecs.PROJECT)
    except Exception as exc:  # a broken third-party plugin must not hide the others' error
        raise TabletopError(
            _("a tabletop plugin failed to load: {reason}", reason=str(exc))
        ) from exc
    try:
        for plugin in extra or []:
            pm.register(plugin)
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise TabletopError(_("plugin error: {reason}", reason=str(exc))) from exc
    return pm
