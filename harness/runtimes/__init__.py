"""Runtimes that build a third-party parser's folder (harness/parsers/<folder>/) from its
committed manifest and lock into the cache, and give the command line that starts its adapter.
One module per runtime: node, jvm, go, rust (harness/parsers/README.md)."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..parsers.registry import BuiltinParser
    from .base import Runtime


def runtime_of(entry: "BuiltinParser") -> "Runtime":
    """The RUNTIME of harness/runtimes/<entry.runtime>.py: no list of runtimes to edit."""
    return importlib.import_module(f"{__name__}.{entry.runtime}").RUNTIME


def folder_of(entry: "BuiltinParser") -> Path:
    from .base import PARSERS_DIR
    return PARSERS_DIR / entry.target
