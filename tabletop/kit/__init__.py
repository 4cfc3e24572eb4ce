"""The plugin author's kit. ``tabletop.testing`` is its public face.

- ``configurations``: the player counts × options played (pairwise when many);
- ``checks/``: one function per conformance check, given an explicit ``Context``;
- ``conformance``: ``check_game`` / ``assert_conformance`` playing the games, ``report`` the
  ``CheckReport``; ``golden``: golden games recorded and replayed;
- ``fuzzing``: hostile texts and mutated positions; ``jsonpaths``: paths into position JSON;
- ``scenarios/``: the rule scenario format, loader and runner; ``pytest_plugin``;
  ``pairwise``; ``mutation/`` (``tabletop test --mutate``).

Nothing here imports typer or rich: the tables of ``tabletop check`` and ``tabletop test
--mutate`` are drawn by ``tabletop.cli.check`` and ``tabletop.cli.mutate``.
"""
