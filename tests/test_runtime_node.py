"""harness/runtimes/node.py: a Node parser's build is keyed by its folder and by the JavaScript
every Node adapter shares, so a change to either builds afresh; without node/npm the parser
says which command provides them. (The builds themselves, npm ci from the real locks, run in
tests/peers_fixtures.py for tests/test_node_peers.py.)"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.runtimes import node
from harness.runtimes.base import BuildError, INSTALL_COMMAND


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "parsers" / "some-parser"
    shared = tmp_path / "parsers" / "node-shared"
    folder.mkdir(parents=True)
    shared.mkdir()
    (folder / "package.json").write_text(json.dumps({"dependencies": {"lib": "1.2.3"}}))
    (folder / "package-lock.json").write_text(json.dumps(
        {"lockfileVersion": 3, "packages": {"": {}, "node_modules/lib": {"version": "1.2.3", "integrity": "sha512-x"}}}))
    (folder / "adapter.js").write_text('require("./common.js");\n')
    (shared / "common.js").write_text("// shared\n")
    monkeypatch.setattr(node, "SHARED_DIR", shared)
    monkeypatch.setenv("BINLOG_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return folder


def test_the_build_is_keyed_by_the_folder_and_the_shared_javascript(layout: Path) -> None:
    runtime = node.NodeRuntime()
    first = runtime.build_dir(layout)
    assert first.parent == layout.parent.parent / "cache" / "parsers" / "node"
    (layout.parent / "node-shared" / "common.js").write_text("// shared, changed\n")
    second = runtime.build_dir(layout)
    (layout / "adapter.js").write_text('require("./common.js"); // changed\n')
    third = runtime.build_dir(layout)
    assert len({first, second, third}) == 3 and all(p.name.startswith("some-parser-") for p in (first, second, third))


def test_the_pinned_version_is_the_locks(layout: Path) -> None:
    assert node.RUNTIME.pinned_version(layout, "lib") == "1.2.3"
    assert node.RUNTIME.pinned_version(layout, "other") is None


def test_without_node_the_parser_says_what_provides_it(layout: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(layout))  # no node, no npm
    reason = node.RUNTIME.unavailable_reason(layout)
    assert reason is not None and "node, npm not on PATH" in reason and "python -m harness setup" in reason
    with pytest.raises(BuildError, match="not on PATH"):
        node.RUNTIME.build(layout, lambda line: None)


def test_not_built_says_the_install_command(layout: Path) -> None:
    assert node.RUNTIME.unavailable_reason(layout) == f"some-parser is not built; provide it with: {INSTALL_COMMAND}"
    assert node.RUNTIME.command(Path("/b")) == ["node", "/b/adapter.js"]
