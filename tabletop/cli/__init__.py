"""The ``tabletop`` command: the typer app and its error boundary (``app``), one module per
command (``games`` with ``rules``, ``play``, ``run``, ``replay``, ``scenarios`` = ``test``,
``arena``, ``analyse``, ``solve``, ``scaffold`` = ``new``, ``serve``), the options they
share (``options``) and the terminal game loop (``session``, ``seats``, ``series``).

Only this package imports typer and rich's console for the terminal (tests/test_layers.py).
"""
