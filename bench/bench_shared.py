"""How soon a player on another server sees an action: two `tabletop serve` processes on
one throwaway PostgreSQL and Redis (tests/db_servers.py), Quarto matches with seat 1 on
one server and seat 2 on the other; for each action, the time from sending it to the
actor's own next position (stored and acknowledged) and to the other seat's (on the
other server: commit, notice, read from the store, its own view built).

    nice -n 10 python3 bench/bench_shared.py --actions 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import db_servers
from tests.web_support import Client, free_port, post, start_process


def quantiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000
    return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    args = parser.parse_args()
    redis = db_servers.RedisServer()
    redis.start()
    processes = []
    try:
        with db_servers.postgres_cluster() as cluster:
            url = db_servers.new_database(cluster, "bench")
            ports = [free_port(), free_port()]
            for port in ports:
                processes.append(start_process(url, port, "--bus", redis.url))  # type: ignore[arg-type]
            bases = [f"http://127.0.0.1:{p}/" for p in ports]
            own: list[float] = []
            other: list[float] = []
            rng = random.Random(0)
            while len(own) + len(other) < args.actions:
                _, links = post(bases[0], "api/matches", {"game": "quarto", "players": 2})
                seats = [Client(bases[i], links["id"], s["token"])
                         for i, s in enumerate(links["seats"])]  # fmt: skip
                for client in seats:
                    client.at(0)
                while (seats[0].position["status"] != "over"
                       and len(own) + len(other) < args.actions):  # fmt: skip
                    number = seats[0].position["number"]
                    actor = seats[seats[0].position["to_act"] - 1]
                    watcher = seats[1] if actor is seats[0] else seats[0]
                    start = time.perf_counter()
                    actor.act(rng.choice(actor.position["legal"]))
                    # whichever is read first is timed exactly: alternate
                    first, samples = ((actor, own), (watcher, other))[number % 2]
                    first.at(number + 1)
                    samples.append(time.perf_counter() - start)
                    for client in seats:
                        client.at(number + 1)
                for client in seats:
                    client.close()
            print(f"actions: {len(own) + len(other)}")
            print(f"the actor's own position (same server): {quantiles(own)}")
            print(f"the other seat's position (other server): {quantiles(other)}")
    finally:
        for process in processes:
            process.terminate()
            process.wait(20)
        redis.close()


if __name__ == "__main__":
    main()
