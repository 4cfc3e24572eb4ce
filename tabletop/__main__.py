"""``python -m tabletop`` is the ``tabletop`` command."""

from tabletop.cli.app import main

main()
