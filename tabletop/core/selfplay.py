"""The defaults ``tabletop analyse`` and ``tabletop compare`` share with their Python API
(:mod:`tabletop.analysis.api`): one definition for the command line and the functions.
It imports nothing, so the command line reads it without loading the analysis stack."""

from __future__ import annotations

SECONDS_PER_TURN = 20.0  # --seconds-per-turn: a length in minutes is an estimate
SEED = 0  # --seed: the seed of the whole run, every game's derives from it
JOBS = 1  # --jobs
BACKEND = "local"  # --backend
ANALYSE_AGENTS = "1,2"  # analyse --agents: self-play levels (pairs: skill)
ANALYSE_GAMES = 100  # analyse --games: per configuration and level
COMPARE_AGENTS = "2"  # compare --agents
COMPARE_GAMES = 200  # compare --games: paired games per level
