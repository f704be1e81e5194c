"""The real mariadb-binlog the tests compare with: the one in our pinned image, not whatever the
host's Debian release ships, so the figures the tests assert hold on any machine.

The external binlogs are decoded in one batch per (image, options), in a container started for
that batch (DecoderSession.run_each), the first time a test asks for any of them.
"""
from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

from generators.profiles import get
from generators.tools import DecoderSession
from tests.external import ROOT, manifest
from tests.server_fixtures import require_image

MARIADB_PROFILE = "mariadb-11.8"  # its image's mariadb-binlog is the pinned tool


@cache
def _external_runs(profile: str, args: tuple[str, ...]) -> dict[Path, subprocess.CompletedProcess[bytes]]:
    files = [b.path for b in manifest() if b.path.is_file()]
    with DecoderSession([ROOT], image=get(profile).image, tool="mariadb-binlog") as session:
        return dict(zip(files, session.run_each(files, args, timeout=900)))


def external_mariadb_binlog(path: Path, args: tuple[str, ...] = ("-vvv",),
                            profile: str = MARIADB_PROFILE) -> subprocess.CompletedProcess[bytes]:
    """The pinned mariadb-binlog's run on an external binlog (skips without Docker or the image;
    a failure under CI=true). Exit status and stderr are the tool's own."""
    require_image(get(profile))
    runs = _external_runs(profile, tuple(args))
    assert Path(path) in runs, f"{path} is not an external binlog of the manifest"
    proc = runs[Path(path)]
    if proc.returncode >= 125:  # not the tool's status: docker could not run it
        raise RuntimeError(f"mariadb-binlog could not be run: {proc.stderr[-300:]!r}")
    return proc
