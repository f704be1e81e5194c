"""Turn (expectation, reply) into an outcome and a message that stays the same from run to run,
so expected-failure entries can match it by prefix."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from .compare import FieldDiff, compare_events, expected_subset
from .expectations import Expectation
from .outcomes import Outcome
from .plugins.base import Capabilities
from .plugins.protocol import CRASH, ERROR, EVENTS, SKIPPED, TIMEOUT, Reply

MAX_REPORTED_DIFFS = 20
_BY_STATUS = {CRASH: Outcome.CRASH, TIMEOUT: Outcome.TIMEOUT, SKIPPED: Outcome.SKIPPED}


@dataclass
class Verdict:
    outcome: Outcome
    message: str
    diffs: list[FieldDiff] = field(default_factory=list)

    def failed_types(self, expectation: Expectation) -> list[str]:
        if self.outcome is Outcome.PASS:
            return []
        if self.outcome is Outcome.MISMATCH and self.diffs:
            return sorted({d.event_type for d in self.diffs})
        return list(expectation.event_types)

    def diffs_json(self) -> list[dict[str, Any]]:
        return [d.to_json() for d in self.diffs[:MAX_REPORTED_DIFFS]]

    def diff_digest(self) -> str:
        """sha256:<16 hex> of all the differences (up to compare.MAX_DIFFS), one line each, sorted:
        the set an expected-failure entry pins. "" when there are none."""
        if not self.diffs:
            return ""
        text = "\n".join(sorted(str(d) for d in self.diffs))
        return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _mismatch(diffs: list[FieldDiff], prefix: str = "") -> Verdict:
    n = len(diffs)
    return Verdict(Outcome.MISMATCH, f"{prefix}{n} difference{'s' if n != 1 else ''}; first: {diffs[0]}", diffs)


def classify(exp: Expectation, reply: Reply, caps: Capabilities) -> Verdict:
    if reply.status in _BY_STATUS:
        return Verdict(_BY_STATUS[reply.status], reply.detail)
    if reply.status not in (EVENTS, ERROR):
        return Verdict(Outcome.UNAVAILABLE, reply.detail)
    if exp.problem:
        return Verdict(Outcome.SKIPPED, f"no expectation: {exp.problem}")
    rejected = reply.status == ERROR
    if rejected and exp.error is None and not exp.accept_either:
        return Verdict(Outcome.REJECTED, str(reply.error))
    if rejected:
        # Both reject: the events before the rejection must still agree.
        if exp.error is not None and caps.partial_events:
            diffs = compare_events(exp.events, reply.events, caps)
            if diffs:
                return _mismatch(diffs, "rejected as expected, but ")
        return Verdict(Outcome.PASS, f"rejected as expected: {reply.error}")
    actual = reply.events
    note = ""
    if exp.error is not None:
        n = len(expected_subset(exp.events, caps))
        if not (exp.accept_either or _outside_capabilities(actual[n:n + 1], caps)):
            return Verdict(Outcome.MISMATCH, f"accepted a file that must be rejected ({exp.error})")
        actual = actual[:n]  # decoding past the rejection point is allowed here
        note = f"decoded past an error it need not detect: {exp.error}"
    diffs = compare_events(exp.events, actual, caps)
    if diffs:
        return _mismatch(diffs)
    return Verdict(Outcome.PASS, note)


def _outside_capabilities(failing: list[dict[str, Any]], caps: Capabilities) -> bool:
    """The expectation stops at a bad event body, and the parser does not claim to decode bodies
    of that type (a header-only parser cannot see garbage in a Query body)."""
    if not failing:
        return False
    return not caps.body_fields(str(failing[0].get("type", failing[0].get("type_code"))))
