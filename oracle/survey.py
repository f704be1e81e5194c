"""`python -m oracle survey DIR...`: decode every binlog under the directories, one line each.

A binlog is any file starting with the 4-byte magic. Each file ends either "ok" or with the typed
error (kind and offset) that stopped it, which is a clean rejection; any other exception is a bug
in the oracle, the only thing that makes the survey fail (exit 1).
"""
from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .decoder import decode_file
from .errors import BinlogError
from .framing import MAGIC
from .text_table import render


@dataclass(frozen=True)
class Outcome:
    file: Path
    server_version: str
    events: int
    outcome: str  # "ok", "<Kind> at <offset>", or "BUG: <exception>"
    bug: bool = False


def binlog_files(dirs: list[str]) -> Iterator[Path]:
    for d in dirs:
        root = Path(d)
        candidates = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for p in candidates:
            if _has_magic(p):
                yield p


def _has_magic(p: Path) -> bool:
    try:
        with open(p, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def survey_file(path: Path) -> Outcome:
    version, count = "-", 0
    try:
        for ev in decode_file(path):
            count += 1
            if version == "-" and "server_version" in ev.body:
                version = str(ev.body["server_version"])
    except BinlogError as e:
        return Outcome(path, version, count, f"{e.kind} at {e.offset}")
    except Exception as e:  # noqa: BLE001 - anything but BinlogError is an oracle bug, reported
        detail = traceback.format_exception_only(type(e), e)[-1].strip()
        return Outcome(path, version, count, f"BUG: {detail}", bug=True)
    return Outcome(path, version, count, "ok")


def _short(path: Path, dirs: list[str]) -> str:
    """The path below the surveyed directory it was found in, which names it well enough."""
    for d in dirs:
        try:
            return str(path.relative_to(d))
        except ValueError:
            continue
    return str(path)


def main(dirs: list[str]) -> int:
    missing = [d for d in dirs if not os.path.exists(d)]
    outcomes = [survey_file(p) for p in binlog_files([d for d in dirs if d not in missing])]
    print(render(("file", "server version", "events", "outcome"),
                 ((_short(o.file, dirs), o.server_version, o.events, o.outcome) for o in outcomes),
                 max_width=120))
    ok = sum(o.outcome == "ok" for o in outcomes)
    bugs = sum(o.bug for o in outcomes)
    print(f"{len(outcomes)} files: {ok} ok, {len(outcomes) - ok - bugs} rejected with a typed error, "
          f"{bugs} bugs" + (f"; not found: {', '.join(missing)}" if missing else ""))
    return 1 if bugs else 0
