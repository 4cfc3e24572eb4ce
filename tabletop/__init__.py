"""tabletop: a platform for tabletop game rules.

The core never names a game: games are plugins found through the ``tabletop``
entry-point group (see :mod:`tabletop.hookspecs`).
"""

from tabletop.hookspecs import hookimpl

__all__ = ["hookimpl"]
__version__ = "0.1.0"
