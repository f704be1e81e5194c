"""A conformance run: every case under every parser, each isolated, each result classified
and appended to the results stream as soon as it is known. A stream testee (hello transport
"stream") reads each case from a primary serving it (stream_serving.py); everything after the
reply is shared with file testees."""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

from . import stream_modes
from .applicability import applied, refusal_for
from .classify import Verdict, classify
from .corpus import Case
from .features import case_features
from .expectations import Expectation, expectation_for
from .outcomes import CaseResult, Outcome, mode_key
from .plugins.base import FULL
from .plugins.launch import Testee
from .plugins.protocol import ERROR, EVENTS, HEARTBEATS, POSITION, SKIPPED, STREAM, UNAVAILABLE, Reply
from .stream_serving import CannotServe, not_a_server_binlog, served, stream_end, stream_expectation


@dataclass
class Target:
    """A parser under test. `label` names it in results; it is the name the user gave."""

    label: str
    testee: Testee


def reply_for(target: Target, case: Case, expectation: Expectation, wire_fault: object = None,
              mode: str = POSITION, end_file: str = "") -> Reply:
    """The testee's reply to one case; a stream testee is served it in `mode` (`wire_fault`:
    broken as harness/wire_faults catalogues; `end_file`: the stream reads on to the end of that
    file of the case, whose events `expectation` then holds after the first file's)."""
    return served_reply(target, case, expectation, wire_fault, mode, end_file)[0]


def served_reply(target: Target, case: Case, expectation: Expectation, wire_fault: object = None,
                 mode: str = POSITION, end_file: str = "") -> tuple[Reply, tuple[str, int] | None]:
    """reply_for's reply, and where the primary started the testee's first dump (None: a file
    testee, or no dump)."""
    hello = target.testee.hello()
    if hello is None:
        failure = target.testee.start_failure()
        return failure or Reply(UNAVAILABLE, detail="parser did not start"), None
    if hello.transport != STREAM:
        return target.testee.parse(str(case.path)), None
    if hello.unavailable:
        return Reply(UNAVAILABLE, detail=hello.unavailable), None
    reason = not_a_server_binlog(expectation)
    if reason is not None:
        return Reply(SKIPPED, detail=f"not streamed: {reason}"), None
    starts: list[tuple[str, int]] = []
    try:
        with served(case, stream_end(expectation), wire_fault, hello.capabilities.schema_lookups,
                    mode, expectation, starts, end_file) as source:
            reply = target.testee.parse(str(case.path), source)
    except CannotServe as e:
        return Reply(SKIPPED, detail=str(e)), None
    return reply, starts[0] if starts else None


def run_case(case: Case, target: Target, expectation: Expectation, mode: str | None = None) -> CaseResult:
    """One case under one parser; `mode` (a stream testee's: POSITION when None) how it is served."""
    started = time.monotonic()
    hello = target.testee.hello()
    stream = hello is not None and hello.transport == STREAM
    mode = (mode or POSITION) if stream else None
    features = case_features(case.meta, expectation.events)  # of the file, whatever the transport
    refusal = refusal_for(target.label, case.meta, expectation)  # likewise
    cause = hello.why_not(mode) if stream and hello is not None and not hello.unavailable else None
    if cause is not None:
        return CaseResult(case.id, target.label, Outcome.NOT_APPLICABLE, stream_modes.not_applicable_message(cause),
                          server_version=expectation.server_version, event_types=expectation.event_types,
                          transport=STREAM, features=features, mode=mode, cause=cause)
    reply, dump_start = served_reply(target, case, expectation, mode=mode or POSITION)
    if stream:
        expectation = stream_modes.mode_expectation(mode or POSITION, case, stream_expectation(expectation),
                                                    dump_start)
    caps = hello.capabilities if hello is not None else FULL
    heartbeat_diffs = []
    if mode == HEARTBEATS and reply.status in (EVENTS, ERROR):
        events, beats = stream_modes.split_heartbeats(reply.events)
        reply = dataclasses.replace(reply, events=events)
        heartbeat_diffs = stream_modes.check_heartbeats(
            [(case.path.name, p) for p in stream_modes.transaction_ends(expectation)], beats,
            expectation.server_version, stream_end(expectation))
    verdict = with_diffs(classify(expectation, reply, caps), heartbeat_diffs)
    result = CaseResult(case.id, target.label, verdict.outcome, verdict.message, verdict.diffs_json(),
                        len(verdict.diffs), expectation.server_version, expectation.event_types,
                        verdict.failed_types(expectation), round(time.monotonic() - started, 3), reply.log,
                        hello.transport if hello is not None else "file",
                        diff_digest=verdict.diff_digest(), features=features,
                        checks=verdict.checks.to_json(), mode=mode)
    return applied(result, refusal)


def with_diffs(verdict: Verdict, diffs: list) -> Verdict:
    """A verdict with differences found outside the event comparison (heartbeats) added: a pass
    becomes a mismatch; a failure keeps its outcome and gains them."""
    if not diffs:
        return verdict
    merged = verdict.diffs + diffs
    if verdict.outcome is Outcome.PASS:
        n = len(merged)
        return dataclasses.replace(verdict, outcome=Outcome.MISMATCH, diffs=merged,
                                   message=f"{n} difference{'s' if n != 1 else ''}; first: {merged[0]}")
    return dataclasses.replace(verdict, diffs=merged)


def run(cases: list[Case], targets: list[Target], *, done: set[tuple[str, str]],
        on_result: Callable[[CaseResult], None], modes: tuple[str, ...] = (POSITION,),
        mode_cases: str = stream_modes.SAMPLE_CASES) -> list[CaseResult]:
    """Run what is not already done (`done`: (CaseResult.key, parser)). The expectation of a case
    is computed once, for all parsers; a stream testee runs it in each of `modes` that applies to
    it (harness/stream_modes.py), a file testee once."""
    results = []
    try:
        for case in cases:
            expectation = None
            for target in targets:
                hello = target.testee.hello()
                stream = hello is not None and hello.transport == STREAM
                if not stream and (case.id, target.label) in done:
                    continue
                if stream and all((mode_key(case.id, m), target.label) in done for m in modes):
                    continue
                expectation = expectation or expectation_for(case)
                todo = stream_modes.modes_for(case, expectation, modes, mode_cases) if stream else [None]
                if stream and hello is not None and hello.unavailable:
                    todo = todo[:1]  # nothing is known of its modes here: one unavailable result per case
                for mode in todo:
                    if (mode_key(case.id, mode), target.label) in done:
                        continue
                    result = run_case(case, target, expectation, mode)
                    on_result(result)
                    results.append(result)
    finally:
        for t in targets:
            t.testee.close()
    return results
