"""The build of a runtime parser's folder for a test: skipped (a failure under CI=true) where the
runtime's toolchain is missing or the folder does not build here."""
from __future__ import annotations

from pathlib import Path

from harness.runtimes.base import PARSERS_DIR, BuildError, Runtime

from .server_fixtures import missing


def built_folder(runtime: Runtime, folder: str) -> Path:
    """Where `runtime` built harness/parsers/<folder>/ (built now if it was not)."""
    tool = runtime.missing_tool()
    if tool:
        missing(tool)
    try:
        return runtime.build(PARSERS_DIR / folder, lambda line: None)
    except BuildError as e:
        missing(f"{folder} does not build here: {e}")
        raise
