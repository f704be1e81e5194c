"""The zip of the code executors import (oracle/, harness/, spark_checks/), for `spark-submit
--py-files` or SparkContext.addPyFile. The harness worker a Python plugin runs in is started
with this zip on its PYTHONPATH (harness/plugins/launch.py puts the code's root there), so it
runs from the zip too."""
from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("oracle", "harness", "spark_checks")
DEFAULT_ZIP = PROJECT_ROOT / "build" / "spark_checks.zip"
_SKIP_DIRS = {"__pycache__", ".pytest_cache"}


def build_zip(out: Path = DEFAULT_ZIP) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    # a temporary name of this process's own: two processes (test workers, a driver and
    # spark-submit) may build the zip at once, and each replaces `out` whole
    fd, name = tempfile.mkstemp(prefix=out.name + ".", suffix=".tmp", dir=out.parent)
    os.close(fd)
    tmp = Path(name)
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for package in PACKAGES:
            for path in sorted((PROJECT_ROOT / package).rglob("*")):
                rel = path.relative_to(PROJECT_ROOT)
                if path.is_file() and not _SKIP_DIRS & set(rel.parts) and path.suffix != ".pyc":
                    z.write(path, rel.as_posix())
    tmp.replace(out)
    return out
