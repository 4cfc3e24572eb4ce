"""The ``tabletop`` command: the typer app (``app``), one module per command, rendering.

Only this package imports typer and rich's console for the terminal.
"""
