"""A conformance run: every case under every parser, each isolated, each result classified
and appended to the results stream as soon as it is known. A stream testee (hello transport
"stream") reads each case from a primary serving it (stream_serving.py); everything after the
reply is shared with file testees."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from .applicability import applied, refusal_for
from .classify import classify
from .corpus import Case
from .features import case_features
from .expectations import Expectation, expectation_for
from .outcomes import CaseResult, Outcome
from .plugins.base import FULL
from .plugins.launch import Testee
from .plugins.protocol import SKIPPED, STREAM, UNAVAILABLE, Reply
from .stream_serving import CannotServe, not_a_server_binlog, served, stream_end, stream_expectation


@dataclass
class Target:
    """A parser under test. `label` names it in results; it is the name the user gave."""

    label: str
    testee: Testee


def reply_for(target: Target, case: Case, expectation: Expectation, wire_fault: object = None) -> Reply:
    """The testee's reply to one case; a stream testee is served it (`wire_fault`: broken as
    harness/wire_faults catalogues)."""
    hello = target.testee.hello()
    if hello is None:
        failure = target.testee.start_failure()
        return failure or Reply(UNAVAILABLE, detail="parser did not start")
    if hello.transport != STREAM:
        return target.testee.parse(str(case.path))
    if hello.unavailable:
        return Reply(UNAVAILABLE, detail=hello.unavailable)
    reason = not_a_server_binlog(expectation)
    if reason is not None:
        return Reply(SKIPPED, detail=f"not streamed: {reason}")
    try:
        with served(case, stream_end(expectation), wire_fault, hello.capabilities.schema_lookups) as source:
            return target.testee.parse(str(case.path), source)
    except CannotServe as e:
        return Reply(SKIPPED, detail=str(e))


def run_case(case: Case, target: Target, expectation: Expectation) -> CaseResult:
    started = time.monotonic()
    reply = reply_for(target, case, expectation)
    features = case_features(case.meta, expectation.events)  # of the file, whatever the transport
    refusal = refusal_for(target.label, case.meta, expectation)  # likewise
    hello = target.testee.hello()
    if hello is not None and hello.transport == STREAM:
        expectation = stream_expectation(expectation)
    caps = hello.capabilities if hello is not None else FULL
    verdict = classify(expectation, reply, caps)
    result = CaseResult(case.id, target.label, verdict.outcome, verdict.message, verdict.diffs_json(),
                        len(verdict.diffs), expectation.server_version, expectation.event_types,
                        verdict.failed_types(expectation), round(time.monotonic() - started, 3), reply.log,
                        hello.transport if hello is not None else "file",
                        diff_digest=verdict.diff_digest(), features=features,
                        checks=verdict.checks.to_json())
    return applied(result, refusal)


def run(cases: list[Case], targets: list[Target], *, done: set[tuple[str, str]],
        on_result: Callable[[CaseResult], None]) -> list[CaseResult]:
    """Run what is not already done. The expectation of a case is computed once, for all parsers."""
    results = []
    try:
        for case in cases:
            todo = [t for t in targets if (case.id, t.label) not in done]
            if not todo:
                continue
            expectation = expectation_for(case)
            for target in todo:
                result = run_case(case, target, expectation)
                on_result(result)
                results.append(result)
    finally:
        for t in targets:
            t.testee.close()
    return results
