"""How idle the machine's CPUs have been lately, from /proc/stat: what `conformance --jobs`
reads to start a parser beyond its N while the running ones only wait (stream parsers idle on
quiet periods and time limits). Elsewhere than Linux it knows nothing and says so (None)."""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

PROC_STAT = Path("/proc/stat")


def cpu_times(stat: Path = PROC_STAT) -> tuple[int, int] | None:
    """(idle, total) jiffies of all CPUs since boot; None where /proc/stat is not readable.
    Idle counts iowait too: a core waiting on the disk can run a parser."""
    try:
        first = stat.read_text(encoding="ascii").split("\n", 1)[0].split()
    except OSError:
        return None
    if not first or first[0] != "cpu":
        return None
    ticks = [int(t) for t in first[1:]]
    return ticks[3] + (ticks[4] if len(ticks) > 4 else 0), sum(ticks[:8])


@dataclass
class IdleMeter:
    """The idle fraction of the last `window` seconds, sampled whenever `sample` is called."""

    window: float = 20.0
    stat: Path = PROC_STAT
    _samples: deque = field(default_factory=deque)

    def sample(self, now: float | None = None) -> None:
        times = cpu_times(self.stat)
        if times is None:
            return
        now = time.monotonic() if now is None else now
        self._samples.append((now, *times))
        while len(self._samples) > 2 and now - self._samples[1][0] >= self.window:
            self._samples.popleft()

    def idle_fraction(self) -> float | None:
        """Idle share of all CPUs over the last `window` seconds; None until a whole window
        has been sampled."""
        if len(self._samples) < 2:
            return None
        (t0, idle0, total0), (t1, idle1, total1) = self._samples[0], self._samples[-1]
        if t1 - t0 < self.window or total1 <= total0:
            return None
        return (idle1 - idle0) / (total1 - total0)
