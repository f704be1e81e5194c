"""Build this project's sdist and wheel (`python -m build`, the wheel made from the sdist, as a
user's pip would) and install the wheel into fresh virtual environments outside the repository:
what a parser project gets from `pip install binlog-conformance`."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "node-header-parser"


def clean_env() -> dict[str, str]:
    """The environment without anything that would let a child import the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def build_distributions(out: Path) -> tuple[Path, Path]:
    """(sdist, wheel) in `out`, built from a copy of the tracked files so that the build leaves
    nothing in the checkout and cannot see untracked ones."""
    src = out / "src"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out / "dist"), str(src)],
                   check=True, capture_output=True, env=clean_env())
    sdist = next((out / "dist").glob("*.tar.gz"))
    wheel = next((out / "dist").glob("*.whl"))
    return sdist, wheel


def example_project(where: Path) -> Path:
    """A parser project of its own: the Node header parser and its expected-failures file, in a
    directory with nothing of the checkout in it."""
    where.mkdir(parents=True, exist_ok=True)
    for name in ("parse.js", "expected-failures.txt"):
        shutil.copy2(EXAMPLE / name, where / name)
    return where
