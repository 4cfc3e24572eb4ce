"""The coach: hints that teach and a post-game review, from the game's own analysis.

- :mod:`~tabletop.coach.base`: what a coach answers (an :class:`~tabletop.coach.base.Assessment`
  of every legal action) and what a coach is (a game's ``coach`` facet,
  :mod:`~tabletop.coach.facet`);
- :mod:`~tabletop.coach.search`: the generic coach, any game's tree search read out;
- :mod:`~tabletop.coach.choose`: which coach a game gets, and the turn it is shown (the
  acting player's view only, a generator seeded by that view);
- :mod:`~tabletop.coach.hints`: an assessment as a hint for people;
- :mod:`~tabletop.coach.review`: every action of a game judged, with verdicts and a summary.

Imported only by ``hint`` and ``tabletop review``: ``play`` and ``run`` never load it.
"""
