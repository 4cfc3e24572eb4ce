"""``python -m tabletop`` is the ``tabletop`` command."""

from tabletop.cli import main

main()
