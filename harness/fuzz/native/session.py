"""What every native engine shares: the settings, the loop that runs a runtime's fuzzer under the
memory limit (restarting it when it stops on a finding while time remains), progress while it
runs, the findings the targets and the engine wrote, and the run's summary.

A target catches what it can inside the parser's process (a panic, an unchecked exception),
names it by the library's own top stack frame and writes `<sha1>.bin` + `<sha1>.json` into
$NATIVE_FUZZ_FINDINGS, then fuzzing goes on. What it cannot catch (a hang, an out-of-memory, an
abort) stops the engine: the runtime module turns the engine's own artifact into the same pair,
and the loop starts the engine again with the corpus it has grown."""
from __future__ import annotations

import abc
import dataclasses
import hashlib
import json
import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from harness.fuzz.seeds import grown_inputs, write_corpus

from . import NativeTarget

Say = Callable[[str], None]
PROGRESS_EVERY_S = 10.0
MIN_ROUND_S = 3  # a restart with less time left than this is not worth the engine's start-up
MAX_ROUNDS = 500  # an engine that stops on every finding (Jazzer, go test -fuzz) restarts often


@dataclass(frozen=True)
class NativeSettings:
    seconds: float
    out: Path
    memory_mb: int = 2048
    timeout: float = 5.0  # seconds per input before it is a hang
    seed: int = 0
    max_len: int = 1 << 16
    # a number: stop after the seeds and that many more inputs (0: the seeds' coverage alone, bench.py)
    runs: int | None = None

    def runs_flags(self) -> list[str]:
        """libFuzzer's (and Jazzer's) flag for `runs`."""
        return [] if self.runs is None else [f"-runs={self.runs}"]


@dataclass
class Progress:
    executions: int | None = None
    coverage: int | None = None
    initial: bool = False  # this line reports the coverage of the seeds alone


@dataclass(frozen=True)
class Launch:
    argv: list[str]
    env: dict[str, str]
    cwd: Path


@dataclass
class EntryRun:
    """One entry point's session: executions summed over the engine's rounds; coverage as the
    engine counts it, after the seeds and at the end."""

    entry_point: str
    executions: int = 0
    coverage_start: int | None = None
    coverage_end: int | None = None
    rounds: int = 0
    elapsed_s: float = 0.0


@dataclass(frozen=True)
class Found:
    kind: str
    signature: str
    detail: str
    reproducer: Path
    entry_point: str
    stack: str = ""


class NativeRuntime(abc.ABC):
    """One runtime's fuzzer. Subclasses build the targets' folder into the cache, say how to start
    the engine on an entry point, read its progress lines, turn what it left when it stopped
    into findings, and replay one input outside the engine."""

    name: str
    engine: str            # "go test -fuzz", "jazzer", "libfuzzer", "atheris"
    coverage_unit: str     # what the coverage numbers count, as the engine reports it

    @abc.abstractmethod
    def build(self, target: NativeTarget, say: Say) -> Path:
        """The complete build of the target's folder in the cache (built when missing)."""

    @abc.abstractmethod
    def launch(self, built: Path, target: NativeTarget, entry: str, work: Path, seconds: int,
               s: NativeSettings) -> Launch:
        """The engine's command for one round on `entry`; corpus in work/corpus."""

    @abc.abstractmethod
    def progress(self, line: str) -> Progress | None:
        """Executions and coverage from one line of the engine's output (None: not a stats line)."""

    def stopped(self, built: Path, target: NativeTarget, entry: str, work: Path, log: str) -> list[Found]:
        """What the engine stopped on, as findings (its artifacts moved to work/findings)."""
        return []

    def grown(self, work: Path) -> list[bytes]:
        """The inputs the engine kept because they raised its coverage (the seeds left out): the
        differential batch runs them through every parser (differential.py)."""
        return grown_inputs(work / "corpus")

    @abc.abstractmethod
    def replay(self, built: Path, target: NativeTarget, entry: str, data: bytes, s: NativeSettings) -> dict[str, Any] | None:
        """The finding one input gives outside the engine ({"kind", "signature", ...}; None: clean)."""

    def run(self, target: NativeTarget, seeds: Sequence[bytes], s: NativeSettings, say: Say) -> list[EntryRun]:
        """Every entry point in turn, the seconds shared between them."""
        built = self.build(target, say)
        share = s.seconds / len(target.entry_points)
        runs = []
        for entry in target.entry_points:
            work = s.out / entry
            write_corpus(work / "corpus", seeds, s.max_len)
            (work / "findings").mkdir(parents=True, exist_ok=True)
            runs.append(run_rounds(self, built, target, entry, work, share, s, say))
        return runs


def _limits(memory_mb: int | None) -> Callable[[], None]:
    def apply() -> None:
        if memory_mb:
            limit = memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.nice(5)  # the engines are CPU hogs; the machine is shared
    return apply


def run_rounds(rt: NativeRuntime, built: Path, target: NativeTarget, entry: str, work: Path, seconds: float,
               s: NativeSettings, say: Say, address_space_mb: int | None = None) -> EntryRun:
    """Run the engine on one entry point until `seconds` are used, restarting it after a stop on a
    finding. Progress every PROGRESS_EVERY_S seconds."""
    run = EntryRun(entry)
    started = time.monotonic()
    deadline = started + seconds
    log_path = work / "engine.log"
    while deadline - time.monotonic() >= MIN_ROUND_S or run.rounds == 0:
        run.rounds += 1
        # another seed each round: the same seed over the same corpus replays the mutations that
        # stopped the last round, and the round stops at once on the same finding again
        launch = rt.launch(built, target, entry, work, max(1, int(deadline - time.monotonic())),
                           dataclasses.replace(s, seed=s.seed + run.rounds))
        env = {**launch.env, "NATIVE_FUZZ_FINDINGS": str(work / "findings"), "NATIVE_FUZZ_TIMEOUT": str(s.timeout)}
        round_execs, lines, said = 0, [], time.monotonic()
        with open(log_path, "a") as log:
            log.write(f"$ {' '.join(launch.argv)}\n")
            proc = subprocess.Popen(launch.argv, cwd=launch.cwd, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, errors="replace",
                                    preexec_fn=_limits(address_space_mb), start_new_session=True)
            assert proc.stdout is not None
            killer = _watchdog(proc, deadline + 120)
            for line in proc.stdout:
                log.write(line)
                lines.append(line)
                p = rt.progress(line)
                if p is None:
                    continue
                if p.executions is not None:
                    round_execs = max(round_execs, p.executions)
                if p.coverage is not None:
                    if run.coverage_start is None and p.initial:
                        run.coverage_start = p.coverage
                    run.coverage_end = p.coverage
                if time.monotonic() - said >= PROGRESS_EVERY_S:
                    said = time.monotonic()
                    say(f"  {target.parser}/{entry}: {time.monotonic() - started:5.0f}s "
                        f"{run.executions + round_execs} execs, {rt.coverage_unit} {run.coverage_end}, "
                        f"findings {len(list((work / 'findings').glob('*.json')))}")
            proc.wait()
            killer.cancel()
        run.executions += round_execs
        found = rt.stopped(built, target, entry, work, "".join(lines))
        if proc.returncode == 0 or run.rounds >= MAX_ROUNDS:
            break  # time is up
        if not found:
            say(f"  {target.parser}/{entry}: the engine stopped (exit {proc.returncode}) on nothing that replays "
                f"outside it (a slow start under load?); restarting ({log_path})")
    run.elapsed_s = round(time.monotonic() - started, 1)
    return run


class _watchdog:
    """Kill the engine's process group past a hard deadline (an engine that ignores its own)."""

    def __init__(self, proc: subprocess.Popen, deadline: float) -> None:
        import threading
        self._timer = threading.Timer(max(1.0, deadline - time.monotonic()), self._kill, (proc,))
        self._timer.daemon = True
        self._timer.start()

    @staticmethod
    def _kill(proc: subprocess.Popen) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def cancel(self) -> None:
        self._timer.cancel()


def write_finding(findings: Path, data: bytes, note: dict[str, Any]) -> Path:
    """`<sha1>.bin` and its note, as the targets write them; returns the .bin."""
    stem = findings / hashlib.sha1(data).hexdigest()
    stem.with_suffix(".bin").write_bytes(data)
    stem.with_suffix(".json").write_text(json.dumps(note, indent=2) + "\n")
    return stem.with_suffix(".bin")


def drop_from_corpus(work: Path, data: bytes) -> None:
    """An input the engine stopped on leaves the corpus (write_corpus names files by sha1), else
    every later round would stop on it again while reading its seeds."""
    (work / "corpus" / hashlib.sha1(data).hexdigest()).unlink(missing_ok=True)


NATIVE_KINDS = ("crash", "hang", "memory")  # what this engine reports (issue 31: not the operators' expectations)


def gather(out: Path, entries: Sequence[str]) -> list[Found]:
    """Every crash, hang and out-of-memory of the run, one per signature (the smallest
    reproducer). The atheris session also notes its operators' broken expectations: those are
    the atheris engine's findings, not this one's."""
    best: dict[str, Found] = {}
    for entry in entries:
        for note_path in sorted((out / entry / "findings").glob("*.json")):
            try:
                note = json.loads(note_path.read_text())
            except (OSError, ValueError):
                continue
            rep = note_path.with_suffix(".bin")
            if not rep.is_file() or "signature" not in note or note.get("kind", "crash") not in NATIVE_KINDS:
                continue
            f = Found(note.get("kind", "crash"), note["signature"], str(note.get("detail", ""))[:500], rep, entry,
                      str(note.get("stack", ""))[:8000])
            old = best.get(f.signature)
            if old is None or rep.stat().st_size < old.reproducer.stat().st_size:
                best[f.signature] = f
    return sorted(best.values(), key=lambda f: f.signature)


def summary(target: NativeTarget, rt: NativeRuntime, runs: list[EntryRun], found: list[Found],
            elapsed: float, out: Path) -> dict[str, Any]:
    """The issue's JSON shape, plus per entry point detail."""
    executions = sum(r.executions for r in runs)
    measured = [r for r in runs if r.coverage_start is not None and r.coverage_end is not None]
    starts = [r.coverage_start for r in measured]  # entry points that never got past their seeds
    ends = [r.coverage_end for r in measured]      # are left out of both sums (their rows say so)
    return {
        "engine": "native", "runtime": rt.name, "fuzzer": rt.engine, "parser": target.parser,
        "executions": executions,
        "coverage_start": sum(starts) if starts else None, "coverage_end": sum(ends) if ends else None,
        "coverage_unit": rt.coverage_unit,
        "findings": [{"signature": f.signature, "reproducer": str(f.reproducer), "kind": f.kind,
                      "entry_point": f.entry_point, "detail": f.detail} for f in found],
        "entry_points": [r.__dict__ for r in runs],
        "elapsed_s": round(elapsed, 1),
        "executions_per_s": round(executions / elapsed, 1) if elapsed else None,
        "out": str(out),
    }
