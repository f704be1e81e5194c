"""Fixtures for tests that need a real server or the real reference decoders.

A missing Docker daemon or image is a skip on a developer's machine and a
failure under CI=true (where .ci/run installs both), decided here so the
message names the fix. Use from a test module with
`from tests.server_fixtures import ...`, or suite-wide with
`pytest_plugins = ("tests.server_fixtures",)` in tests/conftest.py.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest

from generators import docker_env
from generators.profiles import ServerProfile
from generators.server import Server, running_server
from tests.server_pool import ServerPool

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(reason: str, allow_in_ci: bool = False) -> None:
    """Skip, or fail under CI=true unless the caller says a skip is fine there."""
    if IN_CI and not allow_in_ci:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


def require_docker() -> None:
    reason = docker_env.unavailable_reason()
    if reason:
        missing(f"{reason} (run .ci/install-docker.sh)")


def require_image(profile: ServerProfile, allow_in_ci: bool = False) -> None:
    """The profile's image must already be local: we never pull implicitly in tests."""
    require_docker()
    if not docker_env.image_exists(profile.image):
        hint = (f"python -m generators images build {profile.image}" if profile.local
                else f"docker pull {profile.image} (needs a registry)")
        missing(f"image {profile.image} not present ({hint})", allow_in_ci)


@pytest.fixture
def start_server(server_pool: ServerPool) -> Iterator[Callable[..., Server]]:
    """`start_server(profile, settings)` -> a ready Server as a fresh one is: from the session's
    pool, put back to fresh after the test (checked; see generators/server_reuse.py), or started.
    `fresh=True` always starts a new container, removed at test teardown."""
    with ExitStack() as stack:
        def start(profile: ServerProfile, settings: dict[str, str] | None = None,
                  allow_skip_in_ci: bool = False, fresh: bool = False) -> Server:
            require_image(profile, allow_skip_in_ci)
            if fresh:
                return stack.enter_context(running_server(profile, settings or {}))
            server = server_pool.acquire(profile, settings or {})
            stack.callback(server_pool.release, server)
            return server
        yield start


def replication_user_sql(user: str, password: str) -> str:
    """The account a replication client logs in with: dump and read binlogs from 127.0.0.1."""
    return (f"CREATE USER '{user}'@'127.0.0.1' IDENTIFIED BY '{password}';\n"
            f"GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '{user}'@'127.0.0.1';\n")
