"""Players that are programs.

- :mod:`.base`: the vocabulary (``Budget``, ``Turn``, ``Agent``, ``Level``), a leaf the
  contract (:mod:`tabletop.game`) names without importing anything back;
- :mod:`.simple`: ``RandomAgent`` and ``GreedyAgent``;
- :mod:`.search`: the generic tree search (UCT, and ISMCTS for hidden information);
- :mod:`.levels`: the ladder every game gets, and every agent a game can be played against;
- :mod:`.seat`: a computer player at the table (``Seat``, ``make_seat``).

This package imports nothing at import time, so ``tabletop.agents.base`` stays light.
"""
