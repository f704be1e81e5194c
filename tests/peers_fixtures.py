"""The Node parsers built for a test run: `peers install` (harness/parsers/builds.py) into this
run's own cache (never a cache an earlier run left). Shared by the Node parser tests and the
stream fuzz tests."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.parsers.builds import READY, build_all, runtime_entries, state_of
from harness.runtimes import folder_of, runtime_of
from tests.server_fixtures import missing

NODE_PARSERS = tuple(p.name for p in runtime_entries() if p.runtime == "node")


@pytest.fixture(scope="session")
def node_peers_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache of this run's own with the pinned packages of every Node parser, built into it by
    `peers install` once per test session (per xdist worker), not once per module: each build is
    ~18 s of CPU for the same five locks."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing("node/npm not on PATH (install Node.js >= 20: python -m harness setup)")
    cache = tmp_path_factory.mktemp("peers-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BINLOG_CONFORMANCE_CACHE", str(cache))
        lines: list[str] = []
        assert build_all(lines.append, names=NODE_PARSERS) == []
        assert [state_of(p).state for p in runtime_entries(NODE_PARSERS)] == [READY] * len(NODE_PARSERS)
        assert sum("built in" in ln for ln in lines) == len(NODE_PARSERS)
    return cache


@pytest.fixture(scope="module")
def installed(node_peers_cache: Path) -> Iterator[None]:
    """The pinned packages of every Node parser, built by `peers install` into this run's own
    cache, which the module's tests then use."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BINLOG_CONFORMANCE_CACHE", str(node_peers_cache))
        yield


def package_dir(library: str) -> Path:
    """The npm package `library` as the Node parser that pins it has it built (after `installed`)."""
    entry = next(p for p in runtime_entries(NODE_PARSERS) if p.library == library)
    return runtime_of(entry).build_dir(folder_of(entry)) / "node_modules" / library


def node_env() -> dict[str, str]:
    """The environment the Node adapters run in: UTC, as the contract's temporal values are."""
    return {**os.environ, "TZ": "UTC"}
