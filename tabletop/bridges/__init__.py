"""Every installed game in the AI-research frameworks: PettingZoo and OpenSpiel.

``tabletop.bridges.pettingzoo.env(game, ...)`` is an AEC environment;
``tabletop.bridges.openspiel.register()`` registers every game with pyspiel as
``tabletop_<id>``; ``openspiel-mcts:N`` is an arena agent (:mod:`.mcts`). They need the
``research`` extra (``pip install -e '.[research]'``) and games that provide the action
and observation encodings of :class:`tabletop.game.Game`. Nothing else in tabletop
imports this package.
"""
