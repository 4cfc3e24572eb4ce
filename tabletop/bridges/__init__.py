"""Every installed game in the AI-research frameworks: OpenSpiel, PettingZoo, Gymnasium.

``tabletop.bridges.openspiel.register()`` registers every game with pyspiel as
``tabletop_<id>`` (the game's own tree: its chance steps the chance nodes, its
simultaneous steps ``SIMULTANEOUS`` dynamics; perfect-recall information states,
observers of every ``IIGObservationType``, ``resample_from_infostate``,
:class:`~.openspiel.SampledBot`);
``tabletop.bridges.pettingzoo.env(game, ...)`` is an AEC environment and
``parallel_env(game, ...)`` a ParallelEnv;
``tabletop.bridges.gym.SingleAgentEnv(game, opponents, reward)`` a single-agent
Gymnasium environment with tabletop agents at the other seats; ``openspiel-mcts:N`` and
:class:`~.mcts.BotAgent` put OpenSpiel bots at tabletop seats (:mod:`.mcts`). They need
the ``research`` extra (``pip install -e '.[research]'``) and games that provide the
action and observation encodings of :class:`tabletop.game.Game`. Nothing else in
tabletop imports this package. The guide is ``docs/research.md``.
"""
