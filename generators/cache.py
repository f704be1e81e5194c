"""The one cache for pinned downloads and builds (server images' root filesystems and registry
packages, third-party parser builds), outside the repository. A low module on purpose: both
generators/ and harness/ use it, and generators/ must not import harness/."""
from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "BINLOG_CONFORMANCE_CACHE"


def cache_root() -> Path:
    """$BINLOG_CONFORMANCE_CACHE, else $XDG_CACHE_HOME/binlog-conformance, else
    ~/.cache/binlog-conformance."""
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "binlog-conformance"
