"""The bus between servers (tabletop.web.bus) on a real redis-server: notices reach the
other servers and not their sender; a Redis outage loses notices, never the bus (it
reconnects and says so, so the server re-reads the store); presence counts are summed
over the other live servers.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tabletop.web.bus import Bus, Notice


async def until(done: Any, seconds: float = 10) -> None:
    end = asyncio.get_running_loop().time() + seconds
    while not done():
        assert asyncio.get_running_loop().time() < end, "timed out"
        await asyncio.sleep(0.02)


def test_notices_reach_the_others_and_survive_an_outage(redis_server: Any) -> None:
    async def main() -> None:
        got: dict[str, list[Notice]] = {"a": [], "b": []}
        reconnects = {"a": 0, "b": 0}

        def counter(name: str) -> Any:
            def count() -> None:
                reconnects[name] += 1

            return count

        buses = {name: Bus(redis_server.url, name, got[name].append, counter(name))
                 for name in ("a", "b")}  # fmt: skip
        for bus in buses.values():
            bus.open()
            await asyncio.wait_for(bus.connected.wait(), 10)
        await buses["a"].publish({"k": "a", "m": "x", "n": 3})
        await until(lambda: got["b"])
        assert got["b"][0]["n"] == 3 and got["b"][0]["from"] == "a"
        await asyncio.sleep(0.1)
        assert got["a"] == []  # never delivered back to its sender
        redis_server.stop()
        await buses["a"].publish({"k": "a", "m": "x", "n": 4})  # dropped, no error
        await until(lambda: not buses["b"].connected.is_set())
        redis_server.start()
        await until(lambda: reconnects["a"] and reconnects["b"], 20)
        await buses["b"].publish({"k": "a", "m": "x", "n": 5})
        await until(lambda: got["a"])
        assert got["a"][0]["n"] == 5
        for bus in buses.values():
            await bus.close()

    asyncio.run(main())


def test_presence_sums_the_other_servers(redis_server: Any) -> None:
    async def main() -> None:
        buses = [Bus(redis_server.url, f"p{i}", lambda n: None, lambda: None) for i in range(3)]
        await buses[0].set_presence("m", {"1": 1, "s": 2})
        await buses[1].set_presence("m", {"2": 1, "s": 3})
        assert await buses[2].presence("m") == {"1": 1, "2": 1, "s": 5}
        assert await buses[0].presence("m") == {"2": 1, "s": 3}  # its own left out
        assert await buses[2].presence("other") == {}
        for bus in buses:
            await bus.close()

    asyncio.run(main())
