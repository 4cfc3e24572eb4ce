"""What a server is started with: the hosts it answers to, its admission limits, its
computer players and how long a finished match stays in the lobby.

``tabletop serve`` builds one :class:`ServerConfig` from its flags; the defaults suit a
family or a club on one machine and are the ones documented in ``docs/web.md``.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, replace
from typing import Any

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def default_ai_workers() -> int:
    """One worker process a core (at least 1, at most 8)."""
    return max(1, min(8, os.cpu_count() or 1))


@dataclass(frozen=True)
class Limits:
    """Admission limits; a request past one is refused with a line naming it."""

    creates_per_minute: int = 20  # matches one client address may create a minute (429)
    open_matches_per_client: int = 20  # ongoing matches one client address created
    sockets_per_client: int = 100  # websockets open at once from one client address
    open_matches: int = 2000  # ongoing matches on the whole server
    spectator_joins_per_second: float = 200.0  # spectators let in (a crowd waits its turn)


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``build_app`` needs besides the database."""

    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    limits: Limits = field(default_factory=Limits)
    ai_workers: int = field(default_factory=default_ai_workers)
    allow_computer_matches: bool = False
    lobby_keep: float = 600.0  # seconds a finished match stays in the lobby's listing
    abandoned_after: float = 86_400.0  # seconds without an action or a visitor: abandoned
    public_url: str | None = None  # the origin people reach the server at, if proxied
    bus: str | None = None  # redis://...: the servers sharing a PostgreSQL store talk on it
    # the reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (tabletop.web.proxy)
    forwarded_allow_ips: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The config as JSON values (a worker process of ``--workers`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerConfig:
        limits = Limits(**data.pop("limits"))
        data["allowed_hosts"] = tuple(data["allowed_hosts"])
        data["forwarded_allow_ips"] = tuple(data.get("forwarded_allow_ips", ()))
        return cls(limits=limits, **data)

    def with_host(self, host: str) -> ServerConfig:
        """This config also allowing the address the server is bound to."""
        if host in self.allowed_hosts or host in ("0.0.0.0", "::", ""):
            return self
        return replace(self, allowed_hosts=(*self.allowed_hosts, host))
