"""The session's pool of real servers behind tests/server_fixtures.py's `start_server` (issue 30):
a test gets a server of its profile and settings that an earlier test used, put back to fresh and
checked (generators/server_reuse.py), instead of waiting for a new container. Imports no
docker-py until a server is asked for, so tests/conftest.py can offer the fixture suite-wide."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from generators.profiles import ServerProfile
    from generators.server import Server
    from generators.server_reuse import FreshState

# SERVER_REUSE=0: every test gets a new container, as before issue 30 (to rule the pool out).
REUSE = os.environ.get("SERVER_REUSE", "1") not in ("0", "false", "no")


class ServerPool:
    """The session's idle servers by (profile, settings), each put back to fresh before reuse
    (generators/server_reuse.py); one that cannot be is removed. At most IDLE idle servers are
    kept per pytest process (the least recently used goes first)."""

    IDLE = 3

    def __init__(self) -> None:
        self._idle: list[tuple[tuple, Server, FreshState, ExitStack]] = []
        self._busy: dict[int, tuple[tuple, FreshState | None, ExitStack]] = {}
        self.started = self.reused = 0

    @staticmethod
    def _key(profile: ServerProfile, settings: dict[str, str]) -> tuple:
        return profile.name, profile.image, tuple(sorted(settings.items()))

    def acquire(self, profile: ServerProfile, settings: dict[str, str]) -> Server:
        key = self._key(profile, settings)
        for i, (k, server, fresh, stack) in enumerate(self._idle):
            if k == key:
                del self._idle[i]
                self._busy[id(server)] = (key, fresh, stack)
                self.reused += 1
                return server
        from generators import server_reuse  # noqa: PLC0415 (docker-py: not for the quick tier)
        from generators.server import running_server  # noqa: PLC0415
        stack = ExitStack()
        server = stack.enter_context(running_server(profile, settings))
        fresh: FreshState | None = None
        if REUSE:
            try:
                fresh = server_reuse.state(server)
            except Exception:  # e.g. binary logging off: the server is simply not reused
                fresh = None
        self._busy[id(server)] = (key, fresh, stack)
        self.started += 1
        return server

    def release(self, server: Server) -> None:
        from generators import server_reuse  # noqa: PLC0415
        key, fresh, stack = self._busy.pop(id(server))
        try:
            unfit = fresh is None or server_reuse.reset(server, fresh) is not None
        except Exception:  # a server that died or hangs: never handed on
            unfit = True
        if unfit:
            stack.close()
            return
        self._idle.append((key, server, fresh, stack))
        while len(self._idle) > self.IDLE:
            self._idle.pop(0)[3].close()

    def close(self) -> None:
        for *_, stack in self._idle:
            stack.close()
        self._idle.clear()


@pytest.fixture(scope="session")
def server_pool() -> Iterator[ServerPool]:
    """One pool per pytest process (per xdist worker); its idle servers go at the session's end."""
    pool = ServerPool()
    yield pool
    pool.close()
