"""harness/runtimes/rust.py without building: what keys a build, where cargo's caches go, the
argv, the pinned versions, and the shape of the committed Rust parser folders (building is
exercised by tests/test_mysql_common_live.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.runtimes import rust
from harness.runtimes.rust import RUNTIME

FOLDER = rust.PARSERS_DIR / "mysql-common"


def test_committed_folder_has_manifest_lock_source_and_shared_link():
    for name in RUNTIME.required_files:
        assert (FOLDER / name).is_file(), name
    link = FOLDER / "src" / "shared"
    assert link.is_symlink() and link.resolve() == rust.SHARED_DIR.resolve()
    assert (link / "protocol.rs").is_file()
    manifest = (FOLDER / "Cargo.toml").read_text()
    assert 'version = "=0.38.2"' in manifest and 'version = "=0.37.1"' in manifest


def test_pinned_versions_come_from_the_lock():
    assert RUNTIME.pinned_version(FOLDER, "mysql_common") == "0.38.2"  # the newer of the two locked
    assert RUNTIME.pinned_version(FOLDER, "mysql_async") == "0.37.1"
    assert RUNTIME.pinned_version(FOLDER, "no-such-crate") is None


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    (folder / "src").mkdir(parents=True)
    (folder / "Cargo.toml").write_text('[package]\nname = "p-adapter"\n')
    (folder / "src" / "main.rs").write_text("fn main() {}\n")
    return folder


def test_digest_follows_sources_and_shared_code_not_target(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "protocol.rs").write_text("// one\n")
    monkeypatch.setattr(rust, "SHARED_DIR", shared)
    folder = _folder(tmp_path)
    first = RUNTIME.digest(folder)
    (folder / "target" / "release").mkdir(parents=True)
    (folder / "target" / "release" / "junk").write_text("x")
    assert RUNTIME.digest(folder) == first  # a stray target/ never changes the build key
    (shared / "protocol.rs").write_text("// two\n")
    assert RUNTIME.digest(folder) != first
    (shared / "protocol.rs").write_text("// one\n")
    (folder / "src" / "main.rs").write_text("fn main() { }\n")
    assert RUNTIME.digest(folder) != first


def test_cargo_caches_and_binary_live_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BINLOG_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    env = RUNTIME.environment()
    assert env["CARGO_HOME"].startswith(str(tmp_path / "cache"))
    assert env["CARGO_TARGET_DIR"].startswith(str(tmp_path / "cache"))
    built = RUNTIME.build_dir(FOLDER)
    assert built.is_relative_to(tmp_path / "cache") and built.name.startswith("mysql-common-")
    assert RUNTIME.command(built) == [str(built / "adapter")]
    assert rust._package_name(FOLDER) == "mysql-common-adapter"


def test_missing_cargo_names_the_command(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    reason = RUNTIME.missing_tool()
    assert reason is not None and "cargo" in reason and "provide it with" in reason
