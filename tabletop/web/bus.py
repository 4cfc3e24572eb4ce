"""The bus between servers sharing one store (``tabletop serve --bus redis://HOST:PORT/N``).

After a step of a match is committed, its server publishes a small notice on Redis
(redis-py's asyncio client, imported only here): the match and its position number,
never a view or anything hidden. Every server with connections in that match reads the
new actions from the store and builds its own connections' views. Notices are hints:
one lost (Redis down, a reconnect) costs time, never a position, since the servers also
read the store when they reconnect and every :data:`RECHECK` seconds.

Presence is shared the same way: each server writes its own counts of a match's
connections (seats online, spectators) into one Redis hash per match, stamped with the
time, and publishes a notice; a count older than :data:`PRESENCE_TTL` seconds (its
server died) is ignored. Chat messages (text every connection of the match reads anyway)
travel on the bus whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("tabletop.web")

CHANNEL = "tabletop:notices"
PRESENCE_TTL = 30.0  # seconds a server's presence counts count without being renewed
RECHECK = 2.0  # seconds between two readings of the store for rooms with connections
RETRY = 0.5  # seconds before connecting to Redis again after it went away

Notice = dict[str, Any]


def is_url(spec: str) -> bool:
    return spec.startswith(("redis://", "rediss://", "unix://"))


class Bus:
    """One server's end of the bus: ``publish`` notices, ``on_notice`` receives every
    other server's; ``on_reconnect`` runs after the subscription was lost and made again
    (the server then reads the store for everything it serves)."""

    def __init__(
        self,
        url: str,
        server: str,
        on_notice: Callable[[Notice], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.url = url
        self.server = server  # this server's id: its own notices are not delivered back
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self.redis: aioredis.Redis = aioredis.from_url(
            url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=5
        )
        self._task: asyncio.Task[None] | None = None
        self._down = False
        self.connected = asyncio.Event()

    def open(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def publish(self, *notices: Notice) -> None:
        """Best effort, in order, in one round trip (a pipeline): a notice that cannot be
        sent is dropped (the others re-read the store on their own)."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for notice in notices:
                    pipe.publish(CHANNEL, json.dumps({**notice, "from": self.server}))
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._went_down(exc)

    def _went_down(self, exc: BaseException) -> None:
        if not self._down:
            log.warning("the bus (Redis) is unreachable, reading the store instead: %s", exc)
        self._down = True

    async def _listen(self) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.connected.set()
                if not first or self._down:
                    log.warning("the bus (Redis) is back")
                    self._down = False
                    self.on_reconnect()
                first = False
                while True:
                    message = await pubsub.get_message(timeout=RECHECK)
                    if message is None or message.get("type") != "message":
                        continue
                    self._deliver(message["data"])
            except (RedisError, OSError) as exc:
                self.connected.clear()
                self._went_down(exc)
                first = False
                await asyncio.sleep(RETRY)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8 on

    def _deliver(self, data: bytes | str) -> None:
        try:
            notice = json.loads(data)
        except ValueError:
            return
        if not isinstance(notice, dict) or notice.get("from") == self.server:
            return
        try:
            self.on_notice(notice)
        except Exception:  # one bad notice never stops the bus
            log.exception("a notice from the bus could not be handled: %r", notice)

    # -- presence ------------------------------------------------------------------------
    async def set_presence(self, match_id: str, counts: dict[str, int]) -> None:
        """This server's counts of ``match_id``'s connections (``"1"``..: seats, ``"s"``:
        spectators)."""
        key = f"tabletop:presence:{match_id}"
        value = json.dumps({"at": time.time(), "counts": counts})
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hset(key, self.server, value)
                pipe.expire(key, int(PRESENCE_TTL * 2))
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._went_down(exc)

    async def presence(self, match_id: str) -> dict[str, int]:
        """Every other live server's counts of ``match_id``'s connections, summed."""
        try:
            fields = await self.redis.hgetall(f"tabletop:presence:{match_id}")
        except (RedisError, OSError) as exc:
            self._went_down(exc)
            return {}
        total: dict[str, int] = {}
        now = time.time()
        for server, raw in fields.items():
            if (server.decode() if isinstance(server, bytes) else server) == self.server:
                continue
            try:
                entry = json.loads(raw)
                if now - float(entry["at"]) > PRESENCE_TTL:
                    continue
                for key, count in entry["counts"].items():
                    total[str(key)] = total.get(str(key), 0) + int(count)
            except (ValueError, KeyError, TypeError):
                continue
        return total
