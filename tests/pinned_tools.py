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
from oracle.model import Event
from tests.external import ROOT, manifest

MARIADB_PROFILE = "mariadb-11.8"  # its image's mariadb-binlog is the pinned tool
# Where that tool stops early on an external binlog the oracle reads to its end.
MARIADB_LIMITS_FILE = Path(__file__).with_name("mariadb-binlog-11.8-limits.tsv")


def count_events(events: list[Event]) -> int:
    """How many events the real tools print for these decoded ones: the top-level events and
    those inside each Transaction_payload."""
    return sum(1 + len(e.body["events"]) if e.type_code == 40 else 1 for e in events)


@cache
def _external_runs(profile: str, args: tuple[str, ...]) -> dict[Path, subprocess.CompletedProcess[bytes]]:
    from generators.tools import DecoderSession  # noqa: PLC0415 (docker-py: the servers extra)
    files = [b.path for b in manifest() if b.path.is_file()]
    with DecoderSession([ROOT], image=get(profile).image, tool="mariadb-binlog") as session:
        return dict(zip(files, session.run_each(files, args, timeout=900)))


def external_mariadb_binlog(path: Path, args: tuple[str, ...] = ("-vvv",),
                            profile: str = MARIADB_PROFILE) -> subprocess.CompletedProcess[bytes]:
    """The pinned mariadb-binlog's run on an external binlog (skips without Docker or the image;
    a failure under CI=true). Exit status and stderr are the tool's own."""
    from tests.server_fixtures import require_image  # noqa: PLC0415 (docker-py)
    require_image(get(profile))
    runs = _external_runs(profile, tuple(args))
    assert Path(path) in runs, f"{path} is not an external binlog of the manifest"
    proc = runs[Path(path)]
    if proc.returncode >= 125:  # not the tool's status: docker could not run it
        raise RuntimeError(f"mariadb-binlog could not be run: {proc.stderr[-300:]!r}")
    return proc


def mariadb_binlog_limits() -> dict[str, int]:
    """External binlog name -> offset of the first event the pinned mariadb-binlog does not print
    (lines of MARIADB_LIMITS_FILE: name, offset, what the tool says)."""
    out = {}
    for line in MARIADB_LIMITS_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, offset, *_ = line.split("\t")
            out[name] = int(offset)
    return out


def limit_problem(name: str, stopped_at: int | None, limits: dict[str, int] | None = None) -> str | None:
    """Where the tool stopped early (`stopped_at`: the first decoded event it did not print)
    against the recorded limits (`limits`: the committed ones by default), both ways; None when
    they agree."""
    limit = (mariadb_binlog_limits() if limits is None else limits).get(name)
    if stopped_at == limit:
        return None
    if limit is None:
        return f"the tool stopped at offset {stopped_at}, which is not a recorded limit"
    if stopped_at is None:
        return (f"the recorded limit at offset {limit} is gone: the tool printed every event "
                f"(remove it from {MARIADB_LIMITS_FILE.name})")
    return f"the recorded limit is at offset {limit}; the tool now stops at {stopped_at}"
