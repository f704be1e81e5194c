"""Go parser folders built for the tests: the adapter through harness/runtimes/go.py (into the
cache, as `peers install` builds it) and a folder's library-alone probe (`./probe`, from the
folder's own go.mod/go.sum)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from harness.runtimes.base import PARSERS_DIR, BuildError
from harness.runtimes.go import RUNTIME, go_binary, go_environment

from .server_fixtures import missing


def adapter_command(folder: str) -> list[str]:
    """The built adapter's argv (skipped, or failed under CI, without Go; failed if it does not build)."""
    reason = RUNTIME.missing_tool()
    if reason:
        missing(reason)
    try:
        built = RUNTIME.build(PARSERS_DIR / folder, lambda line: None)
    except BuildError as e:
        pytest.fail(f"{folder} did not build: {e}")
    return RUNTIME.command(built)


def probe(folder: str, out_dir: Path) -> Path:
    """The folder's probe program, built into out_dir."""
    reason = RUNTIME.missing_tool()
    if reason:
        missing(reason)
    out = out_dir / "probe"
    # -trimpath as the adapter's build (harness/runtimes/go.py): the flags are part of Go's cache key,
    # so the library's packages `peers install` compiled are reused (without it: 135-169 s of set-up,
    # 65-92 s of CPU per probe in the rehearsal of d60a02b; with it: 3 s)
    subprocess.run([go_binary() or "go", "build", "-trimpath", "-o", str(out), "./probe"], cwd=PARSERS_DIR / folder,
                   env=go_environment(), check=True, capture_output=True, timeout=900)
    return out
