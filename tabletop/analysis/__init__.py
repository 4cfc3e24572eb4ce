"""Balance analysis of a game by self-play (``tabletop analyse``), and the execution
backends (local processes or a Ray cluster) shared with ``tabletop arena``.

Nothing here is imported by ``tabletop play``, ``run`` or ``games``; matplotlib and Ray
are imported only by the functions that need them (extras ``analysis`` and ``cluster``).
"""
