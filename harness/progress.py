"""Progress on stderr for long runs: failures on their own line, passes as a rewritten status
line on a terminal (every 25th case otherwise, so CI logs stay short)."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from .outcomes import CaseResult, Outcome


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.count = 0
        self.start = time.monotonic()
        self.tty = self.stream.isatty()

    def update(self, r: CaseResult) -> None:
        self.count += 1
        if self.quiet:
            return
        head = f"[{self.count}/{self.total}] {r.parser} {r.case}: {r.outcome}"
        if r.outcome is not Outcome.PASS:
            detail = r.message.splitlines()[0][:160] if r.message else ""
            self._line(f"{head} {detail}".rstrip())
        elif self.tty:
            self.stream.write("\r\033[K" + head[:150])
            self.stream.flush()
        elif self.count % 25 == 0 or self.count == self.total:
            self._line(head)

    def _line(self, text: str) -> None:
        self.stream.write(("\r\033[K" if self.tty else "") + text + "\n")
        self.stream.flush()

    def finish(self, skipped_done: int = 0) -> None:
        if self.quiet:
            return
        resumed = f", {skipped_done} from an earlier run" if skipped_done else ""
        self._line(f"{self.count} results in {time.monotonic() - self.start:.1f}s{resumed}")
