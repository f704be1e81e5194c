"""The results stream: one JSON line per (case, parser), appended and flushed as each finishes,
so an interrupted run loses nothing and --resume picks up where it stopped."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from .outcomes import CaseResult


def load(path: Path) -> list[CaseResult]:
    """Complete records only: a torn last line from a killed run is ignored."""
    if not path.exists():
        return []
    results = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.endswith("\n"):
                break
            try:
                results.append(CaseResult.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                break
    return results


class ResultsWriter:
    def __init__(self, path: Path, *, resume: bool) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.previous = load(path) if resume else []
        self._f: IO[bytes] = open(path, "r+b" if resume and path.exists() else "wb")
        if resume:
            self._truncate_after_last_record()

    def _truncate_after_last_record(self) -> None:
        """Cut a torn tail so the next record starts on its own line."""
        good = 0
        self._f.seek(0)
        for _ in self.previous:
            good += len(self._f.readline())
        self._f.seek(good)
        self._f.truncate()

    def done(self) -> set[tuple[str, str]]:
        return {(r.key, r.parser) for r in self.previous}

    def append(self, result: CaseResult) -> None:
        self._f.write(json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8") + b"\n")
        self._f.flush()
        os.fsync(self._f.fileno())

    def close(self) -> None:
        self._f.close()
