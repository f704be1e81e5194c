"""The Node parsers built for a test run: `peers install` (harness/parsers/builds.py) into the
project's cache. Shared by the Node parser tests and the stream fuzz tests."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from harness.parsers.builds import READY, build_all, runtime_entries, state_of
from harness.runtimes import folder_of, runtime_of
from tests.server_fixtures import missing

NODE_PARSERS = tuple(p.name for p in runtime_entries() if p.runtime == "node")


def build_node_parsers() -> None:
    """`peers install` of every Node parser into the cache in force (a no-op where current); each
    must end ready."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing("node/npm not on PATH (install Node.js >= 20: python -m harness setup)")
    lines: list[str] = []
    assert build_all(lines.append, names=NODE_PARSERS) == [], lines[-20:]
    assert [state_of(p).state for p in runtime_entries(NODE_PARSERS)] == [READY] * len(NODE_PARSERS), lines[-20:]


@pytest.fixture(scope="module")
def installed() -> None:
    """The pinned packages of every Node parser, built by `peers install` into the project's cache
    (as `nox -s conformance` leaves them; built here where missing). Not a cache of the test's own:
    a module-wide BINLOG_CONFORMANCE_CACHE also sent the module's other fixtures (the Rust probe,
    CanalAlone, the JVM lines) to an empty cache, and they were built again there (the Rust probe's
    cargo build: 541 s of set-up, 292 s of CPU in the rehearsal of 950015c). That `peers install`
    builds each Node parser from its lock into an empty cache is tests/test_node_peers.py's
    test_peers_install_builds_every_node_parser_into_an_empty_cache."""
    build_node_parsers()


def package_dir(library: str) -> Path:
    """The npm package `library` as the Node parser that pins it has it built (after `installed`)."""
    entry = next(p for p in runtime_entries(NODE_PARSERS) if p.library == library)
    return runtime_of(entry).build_dir(folder_of(entry)) / "node_modules" / library


def node_env() -> dict[str, str]:
    """The environment the Node adapters run in: UTC, as the contract's temporal values are."""
    return {**os.environ, "TZ": "UTC"}
