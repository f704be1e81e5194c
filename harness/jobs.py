"""`python -m harness conformance --jobs N`: every parser the flags name (`--builtin`: every
parser of the registry) in a conformance process of its own, N side by side. A stream parser
spends its time waiting on the wire (its primary, its idle timers), not on a core, so N above
the core count pays; and while the running parsers leave the CPUs idle (the longest ones all
wait), one more starts, up to --max-jobs (harness/cpu_idle.py). Each parser writes results, report.json, junit.xml, report.html and its
log under OUT/<parser>/; at the end one combined report of all of them goes to OUT/ and one
summary line per parser to stderr. Progress: a line as each parser starts and ends, and every
PROGRESS_EVERY seconds the cases each running parser has done."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable

from . import expected_failures as xf
from . import gating, packaged, results
from .cpu_idle import IdleMeter
from .corpus import Case
from .outcomes import CaseResult, Outcome
from .parsers.registry import BY_NAME, STREAM
from .selection import FLAGS, PLUGIN, ParserSpec

PROGRESS_EVERY = 30.0
# One parser more than --jobs starts when the CPUs were this idle over the last IDLE_WINDOW
# seconds, and that long after the last start (a JVM's start-up is busy, its waits are not).
# Measured (2-core machine): the four longest parsers, all waiting, left 93-94 % idle for their
# first minutes, and 43-53 % for their first ten; past --jobs 6 throughout, CPU-bound stretches
# starved the time limits, so extra starts stop as soon as the cores are busy.
IDLE_TO_ADD, IDLE_WINDOW = 0.40, 20.0
RESULTS, LOG = "results.jsonl", "log.txt"
_OTHER_MODE = re.compile(rb'"mode": "(?!position")')  # a results line of a stream mode other than position


@dataclass
class Job:
    spec: ParserSpec
    out: Path
    proc: subprocess.Popen | None = None
    log: IO[str] | None = None
    started: float = 0.0
    elapsed: float = 0.0
    cpu: float = 0.0  # CPU seconds of the job's process and the testees it waited for
    status: int | None = None
    summary: list[str] = field(default_factory=list)

    def done_cases(self) -> int:
        """Cases done so far: the result lines, less those of a stream testee's other modes (its
        mode cases add a line per mode beside the case's own, so lines alone overtake the total)."""
        path = self.out / RESULTS
        try:
            data = path.read_bytes() if path.exists() else b""
        except OSError:
            return 0
        return data.count(b"\n") - len(_OTHER_MODE.findall(data))


def _child_argv(args: argparse.Namespace, job: Job) -> list[str]:
    """The one-parser conformance run of a job, with the run's own settings."""
    argv = [sys.executable, "-m", "harness", "conformance", FLAGS[job.spec.kind], job.spec.spec,
            "--results", str(job.out / RESULTS), "--json", str(job.out / "report.json"),
            "--junit", str(job.out / "junit.xml"), "--html", str(job.out / "report.html"),
            "--timeout", str(args.timeout), "--memory-mb", str(args.memory_mb)]
    for corpus in args.corpus or [str(packaged.corpus_dir())]:
        argv += ["--corpus", corpus]
    if args.expected_failures:
        argv += ["--expected-failures", args.expected_failures]
    argv += ["--modes", ",".join(args.modes), "--mode-cases", args.mode_cases]
    argv += [flag for flag, on in (("--fix", args.fix), ("--resume", args.resume),
                                   ("--require-all", args.require_all)) if on]
    return argv


def _start(args: argparse.Namespace, job: Job) -> None:
    job.out.mkdir(parents=True, exist_ok=True)
    job.log = open(job.out / LOG, "w", encoding="utf-8")
    job.started = time.monotonic()
    job.proc = subprocess.Popen(_child_argv(args, job), stdout=job.log, stderr=subprocess.STDOUT)


def _reaped(job: Job) -> bool:
    """Whether the job's process has ended; if so, reaped with its CPU time (os.wait4: Popen's
    poll would drop the rusage)."""
    assert job.proc is not None
    if job.proc.returncode is not None:
        return True
    pid, status, usage = os.wait4(job.proc.pid, os.WNOHANG)
    if pid == 0:
        return False
    job.proc.returncode = os.waitstatus_to_exitcode(status)
    job.cpu = usage.ru_utime + usage.ru_stime
    return True


def _end(job: Job) -> None:
    assert job.proc is not None and job.log is not None
    job.status = job.proc.wait()
    job.elapsed = time.monotonic() - job.started
    job.log.close()
    lines = (job.out / LOG).read_text(errors="replace").splitlines()
    job.summary = [ln for ln in lines if ln.startswith(("unavailable:", "error:", f"{job.spec.label}: "))]


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _room(args: argparse.Namespace, running: int, meter: IdleMeter, last_start: float) -> str | None:
    """Why one more parser may start now (None: it may not)."""
    if running < args.jobs:
        return ""
    if running >= max(args.jobs, args.max_jobs) or time.monotonic() - last_start < IDLE_WINDOW:
        return None
    idle = meter.idle_fraction()
    return f", CPUs {idle:.0%} idle" if idle is not None and idle >= IDLE_TO_ADD else None


def _drive(args: argparse.Namespace, jobs: list[Job], n_cases: int) -> None:
    pending, running, finished = list(jobs), [], 0
    last_progress = last_start = time.monotonic()
    meter = IdleMeter(IDLE_WINDOW)
    while pending or running:
        meter.sample()
        while pending and (why := _room(args, len(running), meter, last_start)) is not None:
            job = pending.pop(0)
            _start(args, job)
            running.append(job)
            last_start = time.monotonic()
            _say(f"started {job.spec.label} ({len(running)} running{why}, {len(pending)} waiting)")
        for job in [j for j in running if j.proc is not None and _reaped(j)]:
            running.remove(job)
            _end(job)
            finished += 1
            tail = job.summary[-1] if job.summary else f"exit {job.status}"
            _say(f"[{finished}/{len(jobs)}] {job.spec.label} done in {job.elapsed:.0f}s (CPU {job.cpu:.0f}s): {tail}")
        if running and time.monotonic() - last_progress >= PROGRESS_EVERY:
            last_progress = time.monotonic()
            _say("running: " + ", ".join(f"{j.spec.label} {j.done_cases()}/{n_cases}" for j in running))
        time.sleep(0.2)


def _stop(jobs: list[Job]) -> None:
    """Interrupted: each child keeps its results (SIGTERM ends a run like Ctrl-C)."""
    for job in jobs:
        if job.proc is not None and job.status is None:
            job.proc.terminate()
    for job in jobs:
        if job.proc is not None and job.status is None:
            job.proc.wait()


# Each built-in parser's case seconds in a whole run (the sum of its results' durations), as the
# last measured run recorded them: the start order of a checkout that has no run of its own yet,
# as CI's fresh clone has none. `python -m harness.jobs DIR` prints the table of a run in DIR.
MEASURED_SECONDS = Path(__file__).with_name("conformance-seconds.tsv")


def measured_seconds(path: Path | None = None) -> dict[str, float]:
    """parser -> seconds from the committed table (`parser<TAB>seconds`, # comments)."""
    path = path or MEASURED_SECONDS
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")) if path.is_file() else ()
    return {name: float(seconds) for name, seconds in rows}


def _case_seconds(folder: Path) -> float:
    """The summed case durations of the run whose results are in `folder` (0 when none)."""
    return sum(r.duration for r in results.load(folder / RESULTS))


def _longest_first(out: Path) -> Callable[[ParserSpec], tuple[float, bool]]:
    """The order to start parsers in: the longest first, so that the last to finish started
    early. How long a parser takes is what its previous run in `out` recorded, else what the
    committed table says (MEASURED_SECONDS); a parser in neither goes by its transport (a stream
    parser of the registry waits on idle timers and the wire, and takes longest)."""
    measured = measured_seconds()

    def key(spec: ParserSpec) -> tuple[float, bool]:
        entry = BY_NAME.get(spec.spec) if spec.kind == PLUGIN else None
        seconds = _case_seconds(out / spec.label) or measured.get(spec.label, 0.0)
        return seconds, entry is not None and entry.transport == STREAM
    return key


def seconds_table(out: Path) -> str:
    """MEASURED_SECONDS' text from the per-parser results of a run in `out`, longest first."""
    sums = {d.name: _case_seconds(d) for d in sorted(out.iterdir()) if (d / RESULTS).is_file()}
    return "".join(f"{name}\t{seconds:.0f}\n" for name, seconds in sorted(sums.items(), key=lambda kv: -kv[1]))


def _unavailable(rs: list[CaseResult]) -> str | None:
    """A parser none of whose cases could run: why (its results say it)."""
    if rs and all(r.outcome is Outcome.UNAVAILABLE for r in rs):
        return rs[0].message or "unavailable"
    return None


def run(args: argparse.Namespace, specs: list[ParserSpec], cases: list[Case]) -> int:
    """Run the jobs, then gate and report all parsers together."""
    out = Path(args.out)
    jobs = [Job(spec, out / spec.label) for spec in sorted(specs, key=_longest_first(out), reverse=True)]
    start = time.monotonic()
    _say(f"{len(jobs)} parsers x {len(cases)} cases, {args.jobs} side by side (up to {max(args.jobs, args.max_jobs)} "
         f"while the CPUs idle); per-parser output in {out}/<parser>/")
    try:
        _drive(args, jobs, len(cases))
    except KeyboardInterrupt:
        _stop(jobs)
        _say(f"\ninterrupted: results kept in {out}/<parser>/{RESULTS}; rerun with --resume")
        return 130
    labels = [j.spec.label for j in jobs]
    all_results = sorted((r for j in jobs for r in results.load(j.out / RESULTS)),
                         key=lambda r: (r.parser, r.case))
    expected_paths = {label: gating.expected_path(args.expected_failures, label, len(labels)) for label in labels}
    try:
        entries = {label: xf.load(p) for label, p in expected_paths.items()}
    except xf.ExpectedFileError as e:
        _say(f"error: {e}")
        return gating.EXIT_USAGE
    unavailable = {label: why for label in labels
                   if (why := _unavailable([r for r in all_results if r.parser == label])) is not None}
    combined = argparse.Namespace(**{**vars(args), "fix": False, "json": str(out / "report.json"),
                                     "junit": str(out / "junit.xml"), "html": str(out / "report.html")})
    for label, why in unavailable.items():
        _say(f"unavailable: {label}: {why}")
    status = gating.finish(combined, all_results, labels, entries, expected_paths, unavailable)
    # A child's own verdict is the gate's above (1: unexpected or unavailable); any other exit,
    # or a parser with fewer results than cases, is a run that broke: its log says how.
    broken = [j.spec.label for j in jobs if j.status not in (gating.EXIT_OK, gating.EXIT_UNEXPECTED)
              or sum(r.parser == j.spec.label for r in all_results) < len(cases)]
    _say(f"{len(jobs)} parsers in {time.monotonic() - start:.0f}s"
         + (f"; broken: {', '.join(broken)} (their {LOG} in {out}/<parser>/)" if broken else "")
         + f"; combined report: {out / 'report.html'}")
    return gating.EXIT_UNEXPECTED if broken else status


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "build/conformance")
    if not folder.is_dir():
        sys.exit(f"usage: python -m harness.jobs [DIR]: DIR is a `conformance --jobs` output folder ({folder} is none)")
    print(seconds_table(folder), end="")
