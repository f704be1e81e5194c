"""The Node peers installed for a test run: `peers install` into this run's own cache (never a
cache an earlier run left). Shared by the Node peer tests and the stream runner tests."""
from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from harness import peers
from tests.server_fixtures import missing


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The pinned packages, installed by `peers install` into this run's own cache."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        missing("node/npm not on PATH (install Node.js >= 20)")
    mp = pytest.MonkeyPatch()
    mp.setenv("BINLOG_CONFORMANCE_CACHE", str(tmp_path_factory.mktemp("peers-cache")))
    lines: list[str] = []
    peers.install(lines.append)
    assert peers.is_installed() and any("installed in" in ln for ln in lines)
    yield
    mp.undo()
