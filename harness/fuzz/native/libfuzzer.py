"""What the libFuzzer-driven engines (Jazzer for the JVM, libfuzzer-sys for Rust) print and leave
behind, read the same way for both: the `#N NEW cov: ...` status lines as progress, and the
artifacts of a stopped run replayed outside the engine into findings."""
from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import NativeTarget
from .session import Found, NativeSettings, Progress, drop_from_corpus, write_finding

_STATS = re.compile(r"^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE)\s+cov: (\d+) ft: (\d+)")
# -fork=1 (rust.py): the parent's line after each job, its counts summed over the jobs; there is no
# line for the seeds alone, so the first job's line (a few dozen units in) stands for it
_FORK_STATS = re.compile(r"^#(\d+): cov: (\d+) ft: (\d+) corp: \d+ .*\bjob: (\d+)")
# -print_final_stats=1: printed on every stop, a crash included; the status lines come only on new
# coverage, so a round that stops on a crash (in the seeds, say) counts its executions from here
_FINAL_UNITS = re.compile(r"^stat::number_of_executed_units:\s+(\d+)")
REPLAY_JOBS = os.cpu_count() or 2


class LibFuzzerOutput:
    """Mixin of a NativeRuntime whose engine is libFuzzer: its `replay` decides what an artifact is."""

    def progress(self, line: str) -> Progress | None:
        if m := _STATS.search(line):
            return Progress(executions=int(m.group(1)), coverage=int(m.group(3)), initial=m.group(2) == "INITED")
        if fork := _FORK_STATS.search(line):
            return Progress(executions=int(fork.group(1)), coverage=int(fork.group(2)), initial=fork.group(4) == "1")
        if final := _FINAL_UNITS.search(line):
            return Progress(executions=int(final.group(1)))
        return None

    def stopped(self, built: Path, target: NativeTarget, entry: str, work: Path, log: str) -> list[Found]:
        """Each artifact replayed for its signature, REPLAY_JOBS at a time (a replay is a process of
        its own; fork mode leaves hundreds of artifacts in a minute, each ~0.13 s to replay)."""
        inputs = []
        for artifact in sorted((work / "artifacts").glob("*")):
            inputs.append(artifact.read_bytes())
            artifact.unlink()
            drop_from_corpus(work, inputs[-1])
        with ThreadPoolExecutor(REPLAY_JOBS) as pool:
            notes = list(pool.map(lambda data: self.replay(built, target, entry, data,  # type: ignore[attr-defined]
                                                           NativeSettings(0, work)), inputs))
        found = []
        for data, note in zip(inputs, notes):
            if note is None:  # clean outside the engine: a slow unit under load, not a finding
                continue
            note["engine_minimised"] = False
            rep = write_finding(work / "findings", data, note)
            found.append(Found(note["kind"], note["signature"], note.get("detail", ""), rep, entry))
        return found
