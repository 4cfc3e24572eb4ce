"""``python -m tabletop`` is the ``tabletop`` command."""

import sys

from tabletop.cli.app import main

sys.exit(main())
