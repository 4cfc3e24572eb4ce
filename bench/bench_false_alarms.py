"""How often ``tabletop compare`` cries wolf: the A/A false-alarm rate.

    python -m bench.bench_false_alarms [--game quarto] [--players N] [--agents 1]
                                       [--games 100] [--comparisons 100] [--jobs 1]

An A/A comparison pits a configuration against itself on independent deals: the
baseline arm plays seed ``S`` and the "variant" arm the same rules with seed
``S + 1000003`` (identical rules and seeds would play identical games: no difference at
all). Any finding is then a false alarm. Over ``--comparisons`` seeds the bench counts
the comparisons with at least one finding, first as each measure tested alone would say
it (raw p < 5% and the interval clear of 0: the rule before Holm's correction), then
with the correction (Holm-adjusted p < 5%, the verdict's rule), and prints both rates
with their 95% Wilson intervals. Documented in docs/analysis.md ("Many measures at once").
"""

from __future__ import annotations

import argparse
import time

from tabletop.analysis.arena import wilson
from tabletop.analysis.compare import Measured, family, paired_measures
from tabletop.analysis.run import Played, blocks, play_all
from tabletop.analysis.sweep import Plan, make_plan

OTHER_DEALS = 1_000_003  # the variant arm's seed offset: independent games, same rules


def a_a(game: str, players: str | None, agent: str, games: int, seed: int, jobs: int) -> Played:
    """One A/A comparison's games: both arms the baseline's rules, on independent deals."""
    single = make_plan(game, players, [], agent, games, seed)
    other = Plan(single.game, single.configurations, single.levels, games, seed + OTHER_DEALS)
    first, second = play_all([single, other], jobs)
    config = single.configurations[0]
    both = Plan(single.game, (config, config), single.levels, games, seed)
    return Played(both, blocks(both), first.stats + second.stats, first.seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="quarto")
    parser.add_argument("--players", default=None)
    parser.add_argument("--agents", default="1", help="one level")
    parser.add_argument("--games", type=int, default=100, help="paired games a comparison")
    parser.add_argument("--comparisons", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    raw = holm = 0
    tested: list[int] = []
    alarms: dict[str, int] = {}
    for seed in range(args.comparisons):
        found: list[Measured] = paired_measures(
            a_a(args.game, args.players, args.agents, args.games, seed, args.jobs)
        )
        raw += any(m.significant_alone for m in found)
        holm += any(m.significant for m in found)
        tested.append(family(found))
        for m in found:
            if m.significant_alone:
                alarms[m.name] = alarms.get(m.name, 0) + 1
    n = args.comparisons
    print(
        f"A/A: {args.game} {args.players or ''} level {args.agents}, {n} comparisons of "
        f"{args.games} paired games, {sum(tested) / n:.1f} measures moved a comparison "
        f"({time.perf_counter() - began:.0f} s)"
    )
    for what, count in (("each measure alone (raw p)", raw), ("Holm-adjusted (verdicts)", holm)):
        low, high = wilson(count, n)
        print(
            f"  {what}: {count}/{n} comparisons with a finding = {count / n:.0%} "
            f"[{low:.0%}, {high:.0%}]"
        )
    print("  raw false alarms by measure:", dict(sorted(alarms.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
