"""Turn (expectation, reply) into an outcome and a message that stays the same from run to run,
so expected-failure entries can match it by prefix."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from .checks import END, EVENT, REJECTION, STOPPED, Checks
from .compare import FieldDiff, compare_events, expected_subset
from .expectations import Expectation
from .outcomes import Outcome
from .plugins.base import Capabilities
from .plugins.protocol import CRASH, ERROR, EVENTS, SKIPPED, TIMEOUT, Reply

MAX_REPORTED_DIFFS = 20
_BY_STATUS = {CRASH: Outcome.CRASH, TIMEOUT: Outcome.TIMEOUT, SKIPPED: Outcome.SKIPPED}
CHECKSUM_ERROR = "ChecksumMismatch"  # oracle/errors.py


@dataclass
class Verdict:
    outcome: Outcome
    message: str
    diffs: list[FieldDiff] = field(default_factory=list)
    checks: Checks = field(default_factory=Checks)
    pinned: bool = True  # the differences are the same from run to run (not those before a timeout)

    def failed_types(self, expectation: Expectation) -> list[str]:
        if self.outcome is Outcome.PASS:
            return []
        if self.outcome is Outcome.MISMATCH and self.diffs:
            return sorted({d.event_type for d in self.diffs})
        return list(expectation.event_types)

    def diffs_json(self) -> list[dict[str, Any]]:
        return [d.to_json() for d in self.diffs[:MAX_REPORTED_DIFFS]]

    def diff_digest(self) -> str:
        """sha256:<16 hex> of all the differences, one line each, sorted: the set an
        expected-failure entry pins. "" when there are none, or when they may differ from run to
        run (the events a timed-out parser got to deliver)."""
        if not self.diffs or not self.pinned:
            return ""
        text = "\n".join(sorted(str(d) for d in self.diffs))
        return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _mismatch(diffs: list[FieldDiff], checks: Checks, prefix: str = "") -> Verdict:
    n = len(diffs)
    return Verdict(Outcome.MISMATCH, f"{prefix}{n} difference{'s' if n != 1 else ''}; first: {diffs[0]}",
                   diffs, checks)


def classify(exp: Expectation, reply: Reply, caps: Capabilities) -> Verdict:
    if reply.status not in (EVENTS, ERROR, *_BY_STATUS):
        return Verdict(Outcome.UNAVAILABLE, reply.detail)
    if reply.status == SKIPPED:
        return Verdict(Outcome.SKIPPED, reply.detail)
    if reply.status in _BY_STATUS:
        return _partial(Verdict(_BY_STATUS[reply.status], reply.detail, pinned=reply.status != TIMEOUT),
                        exp, reply.events, caps)
    if exp.problem:
        return Verdict(Outcome.SKIPPED, f"no expectation: {exp.problem}")
    rejected = reply.status == ERROR
    if rejected and exp.error is None and not exp.accept_either:
        return _partial(Verdict(Outcome.REJECTED, str(reply.error)), exp, reply.events, caps)
    checks = Checks()
    if rejected:
        # Both reject: the events before the rejection must still agree.
        if exp.error is not None and caps.partial_events:
            diffs = compare_events(exp.events, reply.events, caps, checks)
            if diffs:
                return _mismatch(diffs, checks, "rejected as expected, but ")
        return Verdict(Outcome.PASS, f"rejected as expected: {reply.error}", checks=checks)
    actual = reply.events
    note = ""
    if exp.error is not None:
        n = len(expected_subset(exp.events, caps))
        if not (exp.accept_either or _outside_capabilities(actual[n:n + 1], caps, exp.error.kind)):
            return Verdict(Outcome.MISMATCH, f"accepted a file that must be rejected ({exp.error})",
                           checks=_failed_rejection(exp, caps, actual))
        actual = actual[:n]  # decoding past the rejection point is allowed here
        note = f"decoded past an error it need not detect: {exp.error}"
    diffs = compare_events(exp.events, actual, caps, checks)
    if diffs:
        return _mismatch(diffs, checks)
    return Verdict(Outcome.PASS, note, checks=checks)


def _failed_rejection(exp: Expectation, caps: Capabilities, actual: list[dict[str, Any]]) -> Checks:
    """A file accepted where it must be rejected: one failed check of the event it had to reject."""
    checks = Checks()
    n = len(expected_subset(exp.events, caps))
    bad = actual[n] if n < len(actual) else {}
    checks.add((str(bad.get("type", bad.get("type_code", END))), REJECTION, ""), 1, 1)
    return checks


def _partial(verdict: Verdict, exp: Expectation, delivered: list[dict[str, Any]], caps: Capabilities) -> Verdict:
    """A failed reply (rejected, crashed, timed out) compared on the events it delivered before
    the failure: the expected events up to the last one delivered; the rest are not compared.
    The outcome and message stay the failure's; its checks and differences count."""
    if exp.problem:
        return verdict
    subset = expected_subset(exp.events, caps)
    n = _delivered_prefix(subset, delivered, caps) if delivered else 0
    if delivered:
        verdict.diffs = compare_events(subset[:n], delivered, caps, verdict.checks)
    stopped = subset[n] if n < len(subset) else {}
    verdict.checks.add((str(stopped.get("type", stopped.get("type_code", END))), STOPPED, ""), 1, 1)
    _not_compared_after(subset, n, caps, verdict.checks)
    return verdict


def _delivered_prefix(expected: list[dict[str, Any]], delivered: list[dict[str, Any]], caps: Capabilities) -> int:
    """How many expected events the delivered ones cover: up to the last delivered position where
    positions are reported, else as many as were delivered."""
    last = delivered[-1].get("position")
    if "position" in caps.header and isinstance(last, int):
        return sum(1 for e in expected if isinstance(e.get("position"), int) and e["position"] <= last)
    return min(len(delivered), len(expected))


def _not_compared_after(expected: list[dict[str, Any]], n: int, caps: Capabilities, checks: Checks) -> None:
    checks.not_compared((str(e.get("type", e.get("type_code"))), EVENT, "") for e in expected[n:])


def _outside_capabilities(failing: list[dict[str, Any]], caps: Capabilities, kind: str = "") -> bool:
    """The expectation stops at a bad event body, and the parser does not claim to decode bodies
    of that type (a header-only parser cannot see garbage in a Query body). A checksum error is
    judged on its own: it is in the event's bytes whatever is decoded of them, so no body
    capability excuses a parser that did not raise it."""
    if not failing or kind == CHECKSUM_ERROR:
        return False
    return not caps.body_fields(str(failing[0].get("type", failing[0].get("type_code"))))
