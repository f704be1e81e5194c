"""The `hypothesis` engine: binlogs built from scratch by generators/strategies (valid files of the
MySQL 5.6 / 5.7 / 8.0 / 9.x and MariaDB 10.5 / 10.11 / 11.x profiles), each checked two ways:

- the oracle decodes it, without error, to the values it was built from (else `wrong-value`);
- a parser under test (any harness plugin) agrees with the oracle on it, or rejects it cleanly
  (the differential judgement of targets.differential_parse; else `differential`). A clean
  rejection of a valid file is allowed here (a parser may not support a feature): the summary
  counts them by error kind under "rejections".

An exception other than a typed rejection is a `crash`, an input over the time limit a `hang`.
Hypothesis shrinks each distinct failure to a minimal binlog, which is saved as a reproducer
(.bin, and a .json note with the kind, the detail and the canonical events it was built from).
A run is rounds of hypothesis examples, seeded from the run seed, until --count examples or
--seconds have gone by; a round that finds something ends early and the next one goes on.
"""
from __future__ import annotations

import hashlib
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from oracle.errors import BinlogError

from . import findings as F
from .crash_site import crash_note, site_of
from .outcome import Outcome, Parse, oracle_parse
from .testee_target import TesteeHang

ROUND = 100  # examples per hypothesis run


@dataclass(frozen=True)
class HypothesisSettings:
    seed: int = 0
    count: int | None = 200  # examples (None: until `seconds`)
    seconds: float | None = None
    timeout: float = 5.0  # seconds per parse
    out_dir: Path | None = None
    parser: str | None = None  # a harness plugin compared with the oracle; None: the oracle alone
    profile: str | None = None  # one of generators.strategies.PROFILES; None: all
    keep_per_signature: int = 1


class Hang(Exception):
    pass


class Failure(Exception):
    """Raised inside the property so hypothesis shrinks; one subclass per signature keeps
    distinct bugs apart while it shrinks (it tells failures apart by exception type)."""

    finding: F.Finding


_FAILURE_TYPES: dict[str, type[Failure]] = {}


def _failure(finding: F.Finding) -> Failure:
    cls = _FAILURE_TYPES.get(finding.signature)
    if cls is None:
        name = "Failure_" + hashlib.sha1(finding.signature.encode()).hexdigest()[:8]
        cls = _FAILURE_TYPES[finding.signature] = type(name, (Failure,), {})
    e = cls(f"{finding.signature}: {finding.detail}")
    e.finding = finding
    return e


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang()


class OutOfTime(BaseException):
    """--seconds ran out during a hypothesis round."""


def _timed(parse: Parse, data: bytes, timeout: float) -> Outcome:
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return parse(data)
    except BinlogError as e:
        return Outcome(error_kind=e.kind, error_offset=e.offset)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _crash(who: str, e: BaseException, data: bytes, note: dict[str, Any]) -> F.Finding:
    site = site_of(e)
    return F.Finding(F.CRASH, f"crash:{who}:{site}", f"{who}: {site}: {e}"[:500], data, {**note, **crash_note(e)})


def check(built: Any, parse: Parse | None, timeout: float,
          rejections: dict[str, int] | None = None) -> F.Finding | None:
    """The finding one generated binlog gives, or None (clean rejections by the parser are
    counted in `rejections`)."""
    from generators.strategies import differences
    note: dict[str, Any] = {"operator": f"hypothesis-{built.profile}", "profile": built.profile,
                            "description": repr(built), "built_events": built.events}
    for who, p in (("oracle", oracle_parse), ("parser", parse)):
        if p is None:
            continue
        try:
            got = _timed(p, built.data, timeout)
        except (Hang, TesteeHang):
            return F.Finding(F.HANG, f"hang:{who}", f"{who}: over {timeout}s", built.data, note)
        except MemoryError:
            return F.Finding(F.MEMORY, f"memory:{who}", f"{who}: MemoryError", built.data, note)
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            return _crash(who, e, built.data, note)
        note["outcome_" + who] = got.summary()
        if who == "oracle":
            if not got.accepted:
                return F.Finding(F.WRONG_VALUE, f"wrong-value:oracle-rejects:{got.error_kind}",
                                 f"the oracle rejects a valid binlog: {got.error_kind} at {got.error_offset}",
                                 built.data, note)
            diffs = differences(built.events, got.events)
            if diffs:
                key = diffs[0].split(":")[0].split(" body")[0]
                return F.Finding(F.WRONG_VALUE, f"wrong-value:{key.split('(')[-1].rstrip(')')}",
                                 "; ".join(diffs[:5])[:500], built.data, note)
        elif got.disagreement_key and got.disagreement_key.startswith("rejects-accepted:"):
            if rejections is not None:
                rejections[got.error_kind or "?"] = rejections.get(got.error_kind or "?", 0) + 1
        elif got.disagreement:
            return F.Finding(F.DIFFERENTIAL, f"{F.DIFFERENTIAL}:{got.disagreement_key}", got.disagreement,
                             built.data, note)
    return None


def run(settings: HypothesisSettings, progress: Callable[[str], None] | None = None,
        parse: Parse | None = None) -> dict[str, Any]:
    """Run the engine; `parse` (a Parse callable) may stand in for settings.parser."""
    from hypothesis import HealthCheck, Phase, given, seed, settings as hsettings

    from generators.strategies import built_binlogs

    from .targets import differential_parse
    s = settings
    if parse is None and s.parser and s.parser != "oracle":
        parse = differential_parse(s.parser, s.timeout)
    log = F.FindingLog(s.out_dir / "findings" if s.out_dir else None, s.keep_per_signature)
    started = time.monotonic()
    inputs, per_profile, minimal, rejections = 0, {}, {}, {}
    old_handler = signal.signal(signal.SIGALRM, _on_alarm)

    def out_of_time() -> bool:
        return s.seconds is not None and time.monotonic() - started >= s.seconds

    def budget_left() -> bool:
        return not out_of_time() and (s.count is None or inputs < s.count)

    def prop(built: Any) -> None:
        """One example. Past --seconds the round stops (OutOfTime is not an Exception, so
        hypothesis does not take it for a failure to shrink), keeping the smallest failure
        found so far (in `minimal`): a shrink of a slow parser's failure ran minutes past the
        budget, and passing the examples instead only made the shrinker try every pass."""
        nonlocal inputs
        if out_of_time():
            raise OutOfTime()
        inputs += 1
        per_profile[built.profile] = per_profile.get(built.profile, 0) + 1
        finding = check(built, parse, s.timeout, rejections)
        if finding is not None:
            minimal[finding.signature] = finding  # the last call for a signature is the shrunk one
            raise _failure(finding)

    rounds = 0
    try:
        while budget_left():
            n = ROUND if s.count is None else min(ROUND, s.count - inputs)
            test = seed(s.seed * 100003 + rounds)(hsettings(
                max_examples=max(n, 1), deadline=None, database=None, derandomize=False,
                suppress_health_check=list(HealthCheck), phases=(Phase.generate, Phase.shrink),
                report_multiple_bugs=True)(given(built_binlogs(s.profile))(prop)))
            before = dict(minimal)
            try:
                test()
            except (Failure, BaseExceptionGroup, OutOfTime):
                pass
            for sig, f in minimal.items():
                if before.get(sig) is not f:
                    log.add(f)
            rounds += 1
            if progress and rounds % 10 == 0:
                progress(f"{inputs} examples, {inputs / (time.monotonic() - started):.0f}/s, "
                         f"findings {sum(log.counts.values())}")
    finally:
        signal.signal(signal.SIGALRM, old_handler)
    elapsed = time.monotonic() - started
    return {"engine": "hypothesis", "seed": s.seed, "count": s.count, "parser": s.parser or "oracle",
            "inputs": inputs, "rounds": rounds, "elapsed_s": round(elapsed, 2),
            "inputs_per_s": round(inputs / elapsed, 1) if elapsed else None,
            "per_profile": per_profile, "rejections": rejections, "findings": log.summary(),
            "line_extra": f", {sum(rejections.values())} clean rejections" if rejections else ""}
