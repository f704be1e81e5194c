"""The `mutate` engine: a deterministic walk of the operator catalogue over seed binlogs.

Input i of a run with seed S is operator ops[i % len(ops)] applied to a seed and an RNG both drawn
from random.Random(f"{S}:{i}") (the next seed is tried when an operator has nothing to work on),
so any input can be rebuilt from (S, i) alone and a run's counts do not depend on timing.

Parsing happens in child processes (fork) under RLIMIT_AS and a per-input timer, so a crash, hang
or memory blow-up is recorded as a finding with its reproducer and the run goes on. A child that
dies or stops answering has its batch re-run one input per child to find the input responsible.
"""
from __future__ import annotations

import faulthandler
import json
import multiprocessing as mp
import random
import resource
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Sequence

from harness.mutations import CATALOGUE, Binlog, Expect, Mutation, NotApplicable
from oracle.errors import BinlogError

from . import findings as F
from .crash_site import crash_note, site_of
from .outcome import Outcome, Parse, effective_expectation, oracle_parse, violation
from .resume import SeedDecode
from .seeds import Seed
from .testee_target import TesteeHang


class Hang(Exception):
    """Raised by the per-input timer inside a child."""


@dataclass(frozen=True)
class Settings:
    seed: int = 0
    count: int = 1000
    operators: tuple[str, ...] = ()  # empty: the whole catalogue
    timeout: float = 5.0  # seconds per input
    memory_mb: int = 2048  # RLIMIT_AS of each child
    workers: int = 1
    batch: int = 200
    out_dir: Path | None = None  # reproducers and summary.json; None: keep nothing on disk
    progress_every: int = 10000
    keep_per_signature: int = 3
    seconds: float | None = None  # stop handing out inputs after this long (count still bounds)


@dataclass
class Stats:
    inputs: int = 0
    not_applicable: int = 0
    per_operator: dict[str, Counter] = field(default_factory=dict)
    peak_child_rss_kb: int = 0
    child_cpu_s: float = 0.0  # CPU time the children spent on inputs: the rate on a busy machine

    def count(self, op: str, status: str) -> None:
        self.per_operator.setdefault(op, Counter())[status] += 1


# -- building input i ---------------------------------------------------------------------------

@dataclass
class Plan:
    index: int
    operator: str
    seed_index: int
    rng_seed: str
    mutation: Mutation


# One generator re-seeded for every draw: seeding it with a string gives the stream a new
# random.Random(string) gives (the reproducers' rng_seed), without making one per input.
_RNG = random.Random()


def build(i: int, s: Settings, ops: Sequence[str], seeds: Sequence[Binlog]) -> Plan | None:
    """Input i of the run, or None when no seed suits its operator."""
    name = ops[i % len(ops)]
    rng = _RNG
    rng.seed(f"{s.seed}:{i}")
    start = rng.randrange(len(seeds))
    for attempt in range(len(seeds)):
        k = (start + attempt) % len(seeds)
        rng_seed = f"{s.seed}:{i}:{attempt}"
        rng.seed(rng_seed)
        try:
            m = CATALOGUE[name].apply(seeds[k], rng)
        except NotApplicable:
            continue
        return Plan(i, name, k, rng_seed, m)
    return None


# -- one input, inside a child ------------------------------------------------------------------

def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang()


def check_one(plan: Plan, seed_name: str, seed_outcome: Outcome, parse: Parse, timeout: float,
              run_seed: int) -> tuple[str, F.Finding | None]:
    """Parse one mutated input; returns (status, finding). The finding's note is made only
    when there is a finding (most inputs have none: it was a share of each input's cost)."""
    m = plan.mutation

    def note(**more: Any) -> dict[str, Any]:
        return {**m.note(), "seed": seed_name, "rng_seed": plan.rng_seed, "index": plan.index,
                "run_seed": run_seed, "seed_outcome": seed_outcome.summary(), **more}
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        got = parse(m.data)
    except (Hang, TesteeHang):
        return F.HANG, F.Finding(F.HANG, f"hang:{m.operator}", f"over {timeout}s", m.data, note())
    except MemoryError:
        return F.MEMORY, F.Finding(F.MEMORY, f"memory:{m.operator}", "MemoryError", m.data, note())
    except BinlogError as e:  # a parse callable that lets typed errors escape is fine too
        got = Outcome(error_kind=e.kind, error_offset=e.offset)
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        site = site_of(e)
        return F.CRASH, F.Finding(F.CRASH, f"crash:{site}", f"{site}: {e}"[:500], m.data, note(**crash_note(e)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    status = "accepted" if got.accepted else f"rejected:{got.error_kind}"
    why = getattr(parse, "violation", violation)(m, seed_outcome, got)  # a stream parse's: stream_target
    if why is None:
        if got.disagreement is None:
            return status, None
        return F.DIFFERENTIAL, F.Finding(F.DIFFERENTIAL, f"{F.DIFFERENTIAL}:{got.disagreement_key}",
                                         got.disagreement, m.data, note(outcome=got.summary()))
    kind = (F.BAD_CRC if m.operator.startswith("crc_") and effective_expectation(m, seed_outcome)
            is Expect.MUST_REJECT and got.accepted else F.EXPECTATION)
    return kind, F.Finding(kind, f"{kind}:{m.operator}", why, m.data, note(outcome=got.summary()))


# -- children -----------------------------------------------------------------------------------

@dataclass
class Shared:
    """What every child inherits by fork: settings, parsed seeds and their outcomes."""

    settings: Settings
    ops: tuple[str, ...]
    seeds: list[Seed]
    parsed: list[Binlog]
    outcomes: list[Outcome | None]  # None: not parsed yet (a slow parser parses only the seeds it needs)
    parse: Parse
    # The oracle: each seed's decode, so a mutant is decoded only from where it differs (resume.py).
    decodes: list[SeedDecode] | None = None

    def parse_mutant_of(self, k: int) -> Parse:
        return self.decodes[k].parse if self.decodes is not None else self.parse


def _child(conn: Connection, sh: Shared) -> None:
    s = sh.settings
    faulthandler.disable()  # a parser killed by a signal is a finding, not a traceback on stderr
    limit = s.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        job = conn.recv()
        if job is None:
            return
        results = []
        cpu = time.process_time()
        for i in job:
            plan = build(i, s, sh.ops, sh.parsed)
            if plan is None:
                results.append((i, sh.ops[i % len(sh.ops)], "n/a", None))
                continue
            k = plan.seed_index
            if sh.outcomes[k] is None:
                sh.outcomes[k] = _seed_outcome(sh.seeds[k], sh.parse, F.FindingLog(None))
            status, finding = check_one(plan, sh.seeds[k].name, sh.outcomes[k], sh.parse_mutant_of(k),
                                        s.timeout, s.seed)
            results.append((i, plan.operator, status, finding))
        conn.send((results, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time() - cpu))


class Child:
    def __init__(self, ctx: Any, sh: Shared) -> None:
        self.conn, theirs = ctx.Pipe()
        self.proc = ctx.Process(target=_child, args=(theirs, sh), daemon=True)
        self.proc.start()
        theirs.close()
        self.job: list[int] | None = None
        self.sent = 0.0

    def send(self, job: list[int]) -> None:
        self.job, self.sent = job, time.monotonic()
        self.conn.send(job)

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()


# -- the run ------------------------------------------------------------------------------------

def run(seeds: Sequence[Seed], settings: Settings, parse: Parse = oracle_parse,
        progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run the engine; returns the summary (also written to out_dir/summary.json)."""
    s = settings
    ops = s.operators or tuple(CATALOGUE)
    unknown = [o for o in ops if o not in CATALOGUE]
    if unknown:
        raise ValueError(f"unknown operators: {unknown}")
    if not seeds:
        raise ValueError("no seed binlogs")
    log = F.FindingLog(s.out_dir / "findings" if s.out_dir else None, s.keep_per_signature)
    parsed = [Binlog.parse(x.data) for x in seeds]
    # The oracle in-process is cheap: decode every seed up front (a crash on one is a finding);
    # another parser parses a seed in the child that first needs it.
    decodes = [_seed_decode(x, log) for x in seeds] if parse is oracle_parse else None
    outcomes: list[Outcome | None] = [d.outcome for d in decodes] if decodes else [None] * len(seeds)
    sh = Shared(s, tuple(ops), list(seeds), parsed, outcomes, parse, decodes)
    stats = Stats()
    started = time.monotonic()
    last_report = 0

    def record(results: list, rss: int, cpu: float = 0.0) -> None:
        nonlocal last_report
        stats.peak_child_rss_kb = max(stats.peak_child_rss_kb, rss)
        stats.child_cpu_s += cpu
        for _i, op, status, finding in results:
            if status == "n/a":
                stats.not_applicable += 1
            else:
                stats.inputs += 1
            stats.count(op, status)
            if finding is not None:
                log.add(finding)
        done = stats.inputs + stats.not_applicable
        if done - last_report >= s.progress_every:
            last_report = done
            elapsed = time.monotonic() - started
            checkpoint(f"{done}/{s.count} inputs, {stats.inputs / elapsed:.0f}/s, "
                       f"findings {sum(log.counts.values())}, peak child RSS {stats.peak_child_rss_kb // 1024} MiB")

    def summarize() -> dict[str, Any]:
        elapsed = time.monotonic() - started
        return {
            "engine": "mutate", "seed": s.seed, "count": s.count, "done": stats.inputs + stats.not_applicable,
            "operators": len(ops), "seeds": len(seeds), "inputs": stats.inputs,
            "not_applicable": stats.not_applicable, "elapsed_s": round(elapsed, 2),
            "inputs_per_s": round(stats.inputs / elapsed, 1) if elapsed else None,
            "child_cpu_s": round(stats.child_cpu_s, 2),
            "inputs_per_cpu_s": round(stats.inputs / stats.child_cpu_s, 1) if stats.child_cpu_s else None,
            "peak_child_rss_mib": round(stats.peak_child_rss_kb / 1024, 1),
            "timeout_s": s.timeout, "memory_limit_mib": s.memory_mb,
            "findings": log.summary(),
            "per_operator": {op: dict(sorted(c.items())) for op, c in sorted(stats.per_operator.items())},
        }

    def checkpoint(line: str) -> None:
        _write_summary(s.out_dir, summarize())
        if progress:
            progress(line)

    _drive(sh, record, log)
    summary = summarize()
    _write_summary(s.out_dir, summary)
    return summary


def _write_summary(out_dir: Path | None, summary: dict[str, Any]) -> None:
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = out_dir / "summary.json.tmp"
        tmp.write_text(json.dumps(summary, indent=2) + "\n")
        tmp.replace(out_dir / "summary.json")


def _seed_outcome(seed: Seed, parse: Parse, log: F.FindingLog) -> Outcome:
    """The unmutated seed's outcome (a crash on a seed itself is a finding too)."""
    try:
        return parse(seed.data)
    except BinlogError as e:
        return Outcome(error_kind=e.kind, error_offset=e.offset)
    except Exception as e:  # noqa: BLE001
        site = site_of(e)
        log.add(F.Finding(F.CRASH, f"crash:{site}", f"unmutated seed: {site}: {e}"[:500], seed.data,
                          {"operator": "none", "seed": seed.name, **crash_note(e)}))
        return Outcome(error_kind="crash")


def _seed_decode(seed: Seed, log: F.FindingLog) -> SeedDecode:
    """The oracle's decode of a seed with its checkpoints. A seed the oracle crashes on is a
    finding, and its mutants are decoded from the start (no checkpoints)."""
    try:
        return SeedDecode.of(seed.data)
    except Exception:  # noqa: BLE001 - _seed_outcome records it
        return SeedDecode(seed.data, _seed_outcome(seed, oracle_parse, log))


def _drive(sh: Shared, record: Callable[..., None], log: F.FindingLog) -> None:
    s = sh.settings
    ctx = mp.get_context("fork")
    stop_at = time.monotonic() + s.seconds if s.seconds is not None else None
    starts = iter(range(0, s.count, s.batch))

    def next_batch() -> list[int] | None:
        """The next inputs in order, made on demand (a time-bounded run has a huge count)."""
        if stop_at is not None and time.monotonic() >= stop_at:
            return None
        a = next(starts, None)
        return None if a is None else list(range(a, min(a + s.batch, s.count)))
    pending = next_batch()
    idle = [Child(ctx, sh) for _ in range(max(1, s.workers))]
    busy: list[Child] = []
    deadline = s.timeout * s.batch + 30  # backstop for a hang the in-child timer cannot break
    try:
        while pending is not None or busy:
            while idle and pending is not None:
                c = idle.pop()
                c.send(pending)
                busy.append(c)
                pending = next_batch()
            ready = mp.connection.wait([c.conn for c in busy] + [c.proc.sentinel for c in busy], timeout=1.0)
            for c in list(busy):
                if c.conn in ready and c.conn.poll():
                    try:
                        results, rss, cpu = c.conn.recv()
                    except (EOFError, OSError):
                        results = None
                    if results is not None:
                        record(results, rss, cpu)
                        busy.remove(c)
                        idle.append(c)
                        continue
                if not c.proc.is_alive() or time.monotonic() - c.sent > deadline:
                    busy.remove(c)
                    c.stop()
                    _isolate(ctx, sh, c.job or [], record, log)
                    idle.append(Child(ctx, sh))
    finally:
        for c in idle + busy:
            c.stop()


def _isolate(ctx: Any, sh: Shared, job: list[int], record: Callable[..., None],
             log: F.FindingLog) -> None:
    """Re-run a batch whose child died or stalled, one input per child, to find the culprit."""
    s = sh.settings
    for i in job:
        c = Child(ctx, sh)
        c.send([i])
        if c.conn.poll(s.timeout * 3 + 10):
            try:
                record(*c.conn.recv())
                c.stop()
                continue
            except (EOFError, OSError):
                pass
        alive = c.proc.is_alive()
        c.stop()
        plan = build(i, s, sh.ops, sh.parsed)
        if plan is None:
            continue
        m = plan.mutation
        kind = F.HANG if alive else F.MEMORY if c.proc.exitcode == -signal.SIGKILL else F.CRASH
        detail = "no answer (stuck outside Python)" if alive else f"child exit code {c.proc.exitcode}"
        note = {**m.note(), "seed": sh.seeds[plan.seed_index].name, "rng_seed": plan.rng_seed,
                "index": i, "run_seed": s.seed}
        log.add(F.Finding(kind, f"{kind}:{m.operator}:child", detail, m.data, note))
        record([(i, plan.operator, kind, None)], 0)
