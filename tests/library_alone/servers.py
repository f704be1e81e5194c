"""Real servers for the library-alone findings tests: started on first use, each with a user
that may do anything (both 'user'@'%' and 'user'@'localhost': MariaDB's anonymous localhost
account would shadow the first) and an empty database `f`."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from generators.profiles import LOCAL_PROFILES
from generators.server import Server, running_server
from tests.server_fixtures import require_image


@contextmanager
def lazy_servers(kinds: dict[str, tuple[str, dict[str, str]]], user: str,
                 password: str) -> Iterator[Callable[[str], Server]]:
    """kinds: name -> (profile, settings). Yields get(name) -> that running server."""
    started: dict[str, Server] = {}
    with ExitStack() as stack:
        def get(kind: str) -> Server:
            if kind not in started:
                profile, settings = kinds[kind]
                require_image(LOCAL_PROFILES[profile])
                server = stack.enter_context(running_server(LOCAL_PROFILES[profile], settings))
                for host in ("%", "localhost"):
                    server.execute(f"CREATE USER '{user}'@'{host}' IDENTIFIED BY '{password}'; "
                                   f"GRANT ALL ON *.* TO '{user}'@'{host}'")
                server.execute("CREATE DATABASE f")
                started[kind] = server
            return started[kind]
        yield get
