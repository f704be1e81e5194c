"""Where the corpus is: the checkout's corpus/ when this runs from a clone, else the copy the
wheel carries (the package `binlog_conformance_corpus`, which is corpus/ itself), so an installed
`binlog-conformance run --parser-cmd ./my-parser` gates with no --corpus from any directory."""
from __future__ import annotations

import importlib.util
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_PACKAGE = "binlog_conformance_corpus"


def corpus_dir() -> Path:
    """The default corpus: the checkout's, else the installed package's. Where neither is (a
    bare install without its data), the checkout's path, which discover() reports missing."""
    checkout = PROJECT_ROOT / "corpus"
    if checkout.is_dir():
        return checkout
    spec = importlib.util.find_spec(DATA_PACKAGE)  # a namespace package: corpus/ has no __init__.py
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else checkout


def expected_failures_dir() -> Path:
    """harness/expected/: the built-in parsers' reviewed expected failures (package data)."""
    return Path(__file__).resolve().parent / "expected"
