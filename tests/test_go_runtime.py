"""harness/runtimes/go.py: a folder whose go.mod asks for a newer Go than the one here is
unavailable with that reason (GOTOOLCHAIN=local never downloads another toolchain)."""
from __future__ import annotations

from pathlib import Path

from harness.runtimes.go import RUNTIME, go_mod_version

from .server_fixtures import missing


def test_a_go_mod_newer_than_the_toolchain_makes_the_folder_unavailable(tmp_path: Path) -> None:
    reason = RUNTIME.missing_tool()
    if reason:
        missing(reason)
    folder = tmp_path / "future"
    folder.mkdir()
    (folder / "go.mod").write_text("module example.org/future\n\ngo 1.99.0\n")
    assert go_mod_version(folder) == (1, 99, 0)
    assert "future needs Go 1.99.0 or newer (its go.mod)" in (RUNTIME.unavailable_reason(folder) or "")


def test_the_go_directive_without_a_patch_reads_as_patch_zero(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.org/m\n\ngo 1.25\n")
    assert go_mod_version(tmp_path) == (1, 25, 0)
