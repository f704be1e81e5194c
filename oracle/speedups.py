"""Where the compiled accelerators come from, and the switch that turns them off.

setup.py builds every `oracle/**/_*.c` as a C twin of a hot path (row images, JSONB text, -vvv
row text). Callers ask `accelerator("codecs._rowimage")` once at import and use the module when
it is there, their own Python code otherwise. BINLOG_ORACLE_PURE=1 forces pure Python everywhere:
the identity test runs both ways and compares the bytes, and a user who suspects the C code can
rule it out.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PURE = os.environ.get("BINLOG_ORACLE_PURE", "") not in ("", "0")
PACKAGE_DIR = Path(__file__).resolve().parent


def environment(pure: bool, base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) for a child process that runs the oracle
    pure (BINLOG_ORACLE_PURE=1) or with its accelerators (the variable removed)."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k != "BINLOG_ORACLE_PURE"}
    if pure:
        env["BINLOG_ORACLE_PURE"] = "1"
    return env


def accelerator(name: str) -> ModuleType | None:
    """The compiled module oracle.<name>, or None when pure Python is asked for or it was not built."""
    if PURE:
        return None
    try:
        return importlib.import_module(f"oracle.{name}")
    except ImportError:
        return None


@dataclass(frozen=True)
class Accelerator:
    name: str  # relative to the oracle package, e.g. "codecs._rowimage"
    source: Path
    built: Path | None  # the extension module next to it, if any

    @property
    def stale(self) -> bool:
        """Built before its source last changed: pip install -e . (or setup.py build_ext
        --inplace) has not run since, and the module in use is not the code in the tree. In whole
        seconds: build_ext --inplace copies the module with its time cut to the second."""
        return self.built is not None and int(self.built.stat().st_mtime) < int(self.source.stat().st_mtime)


def accelerators() -> list[Accelerator]:
    """Every C twin in the tree, with its build (as setup.py names them)."""
    found = []
    for source in sorted(PACKAGE_DIR.rglob("_*.c")):
        rel = source.relative_to(PACKAGE_DIR).with_suffix("")
        built = sorted(source.parent.glob(source.stem + ".*.so"))
        found.append(Accelerator(".".join(rel.parts), source, built[-1] if built else None))
    return found
