"""Where the compiled accelerators come from, and the switch that turns them off.

setup.py builds a C twin for a few hot paths (row images, JSONB text, -vvv row text). Callers
ask `accelerator("codecs._rowimage")` once at import and use the module when it is there,
their own Python code otherwise. BINLOG_ORACLE_PURE=1 forces pure Python everywhere: the identity
tests run both ways and compare the bytes, and a user who suspects the C code can rule it out.
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE = os.environ.get("BINLOG_ORACLE_PURE", "") not in ("", "0")


def accelerator(name: str) -> ModuleType | None:
    """The compiled module oracle.<name>, or None when pure Python is asked for or it was not built."""
    if PURE:
        return None
    try:
        return importlib.import_module(f"oracle.{name}")
    except ImportError:
        return None
