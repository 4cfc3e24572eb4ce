"""``tabletop`` with the test game of shapes registered (tests/shapes_game.py): run as
``python tests/sealed_play.py play coinbids ...`` from the repository's root."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.core import registry
from tabletop.hookspecs import hookimpl
from tests.shapes_game import CoinBidsGame


class Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Callable[[Any], None]) -> None:
        register(CoinBidsGame())


if __name__ == "__main__":
    registry._default = registry.Registry(extra=[Plugin()])
    from tabletop.cli.app import main

    sys.exit(main(sys.argv[1:]))
