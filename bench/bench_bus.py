"""How fast a notice goes from one server to another: Redis pub/sub (redis-py asyncio,
what ``--bus`` uses) beside PostgreSQL LISTEN/NOTIFY (psycopg 3), on throwaway servers
started like the tests' (tests/db_servers.py).

    nice -n 10 python3 bench/bench_bus.py --notices 2000

For each: the latency of one notice at a time (publish, wait for it at the listener:
p50 and p99 in milliseconds) and the notices a second when published back to back.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import db_servers


def quantiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
    return f"p50 {p50:.3f} ms, p99 {p99:.3f} ms"


async def redis_bench(url: str, count: int) -> tuple[list[float], float]:
    import redis.asyncio as aioredis

    pub, sub = aioredis.from_url(url), aioredis.from_url(url)
    pubsub = sub.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe("bench")
    got: asyncio.Queue[Any] = asyncio.Queue()

    async def listen() -> None:
        async for message in pubsub.listen():
            if message["type"] == "message":
                got.put_nowait(message["data"])

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.2)
    latencies = []
    for number in range(count):
        start = time.perf_counter()
        await pub.publish("bench", json.dumps({"m": "x", "n": number}))
        await got.get()
        latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    for number in range(count):
        await pub.publish("bench", json.dumps({"m": "x", "n": number}))
    for _ in range(count):
        await got.get()
    rate = count / (time.perf_counter() - start)
    task.cancel()
    await pub.aclose()
    return latencies, rate


async def notify_bench(url: str, count: int) -> tuple[list[float], float]:
    import psycopg

    pub = await psycopg.AsyncConnection.connect(url, autocommit=True)
    sub = await psycopg.AsyncConnection.connect(url, autocommit=True)
    await sub.execute("LISTEN bench")
    got: asyncio.Queue[Any] = asyncio.Queue()

    async def listen() -> None:
        async for note in sub.notifies():
            got.put_nowait(note.payload)

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.2)
    latencies = []
    for number in range(count):
        start = time.perf_counter()
        await pub.execute("SELECT pg_notify('bench', %s)", (json.dumps({"m": "x", "n": number}),))
        await got.get()
        latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    for number in range(count):
        await pub.execute("SELECT pg_notify('bench', %s)", (json.dumps({"m": "x", "n": number}),))
    for _ in range(count):
        await got.get()
    rate = count / (time.perf_counter() - start)
    task.cancel()
    await pub.close()
    return latencies, rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notices", type=int, default=2000)
    args = parser.parse_args()
    redis_server = db_servers.RedisServer()
    redis_server.start()
    try:
        with db_servers.postgres_cluster() as pg:
            for name, bench, url in (
                ("redis pub/sub", redis_bench, redis_server.url),
                ("postgres LISTEN/NOTIFY", notify_bench, pg),
            ):
                latencies, rate = asyncio.run(bench(url, args.notices))
                print(f"{name:24} one at a time: {quantiles(latencies)}; "
                      f"back to back: {rate:,.0f} notices/s")  # fmt: skip
    finally:
        redis_server.close()


if __name__ == "__main__":
    main()
