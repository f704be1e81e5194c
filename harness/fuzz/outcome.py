"""What one parse of one input gave, and whether it keeps a mutation operator's promise.

A parser under fuzzing is any callable `parse(data: bytes) -> Outcome` that returns the canonical
events it decoded and the typed error it stopped at, and lets every other exception escape (the
engines count those as crashes). `oracle_parse` adapts the reference decoder.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from harness.mutations import Expect, Mutation, expectation_on


@dataclass
class Outcome:
    events: list[dict[str, Any]] = field(default_factory=list)
    error_kind: str | None = None  # None: decoded to the end
    error_offset: int | None = None
    error_message: str = ""  # the oracle's, where it made this outcome
    # Differential mode: why this outcome disagrees with the oracle's on the same input (None: it
    # agrees, or no comparison was made).
    disagreement: str | None = None
    disagreement_key: str | None = None  # what makes two disagreements the same (for dedup)
    transport: str | None = None  # "stream": served by the primary (stream_target.py); None: a file

    @property
    def accepted(self) -> bool:
        return self.error_kind is None

    def summary(self) -> dict[str, Any]:
        out = {"events": len(self.events), "error": self.error_kind, "offset": self.error_offset}
        if self.disagreement:
            out["disagreement"] = self.disagreement
        if self.transport:
            out["transport"] = self.transport
        return out


Parse = Callable[[bytes], Outcome]


def oracle_parse(data: bytes) -> Outcome:
    """The reference decoder, checksums verified. Only oracle.errors.BinlogError is a rejection."""
    return oracle_decode(data)


def oracle_decode(data: bytes, head: Sequence[dict[str, Any]] = (), **how: Any) -> Outcome:
    """oracle_parse, with oracle.decoder.decode_bytes' resume/checkpoints/stop (harness/fuzz/
    resume.py): `head` are the events before the resume point."""
    from oracle import BinlogError
    from oracle.decoder import decode_bytes
    out = Outcome(list(head))
    append = out.events.append
    try:
        for event in decode_bytes(data, **how):
            append(event.to_json())
    except BinlogError as e:
        out.error_kind, out.error_offset, out.error_message = e.kind, e.offset, e.message
    return out


def plugin_outcome(parse: Callable[[Any], Any], arg: Any) -> Outcome:
    """An in-process plugin's parse (of a path) or parse_stream (of a StreamSource) as an Outcome:
    ParseError and Unsupported are clean outcomes; anything else escapes (a crash)."""
    from harness.plugins.base import ParseError, Unsupported
    try:
        return Outcome(list(parse(arg)))
    except ParseError as e:
        return Outcome(list(e.events), e.kind, e.offset)
    except Unsupported:
        return Outcome([], "Unsupported", None)


def _without(event: dict[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    rest = {k: v for k, v in event.items() if k not in keys}
    if "checksum" in rest:  # a recomputed CRC is a repair, not a change
        rest["checksum"] = {k: v for k, v in rest["checksum"].items() if k != "stored"}
    return rest


def effective_expectation(m: Mutation, seed: Outcome, data: bytes | None = None) -> Expect:
    """An operator's promise is about a seed that decodes: over a seed that is itself rejected,
    only "no crash" (and, for damage, rejection) can be asserted, and not even rejection when the
    seed already stopped inside the mutated event (more damage there may cancel its own out: a
    byte appended after a cut status var completes it). data, the input actually parsed when it
    is not m.data, must still meet the operator's precondition (model.expectation_on)."""
    expect = m.expect if data is None else expectation_on(m, data)
    if expect is Expect.MUST_ACCEPT_WITH_CHANGE and not seed.accepted:
        return Expect.ANY_CLEAN
    if expect is Expect.MUST_REJECT and not seed.accepted and len(seed.events) == m.event_index:
        return Expect.ANY_CLEAN
    return expect


def violation(m: Mutation, seed: Outcome, got: Outcome, data: bytes | None = None) -> str | None:
    """Why `got` (the outcome of data, m.data by default) breaks the operator's expectation, or
    None when it keeps it."""
    expect = effective_expectation(m, seed, data)
    first = m.event_index if m.event_index is not None else 0
    # Events before the damage decode as in the seed, whatever the expectation.
    prefix = min(first, len(seed.events))
    if expect is not Expect.ANY_CLEAN and got.events[:prefix] != seed.events[:prefix]:
        if len(got.events) < prefix:
            return f"stopped after {len(got.events)} events, before the mutated event {first}"
        return "an event before the mutated one decodes differently"
    if expect is Expect.MUST_REJECT:
        return None if not got.accepted else f"accepted ({len(got.events)} events), must reject"
    if expect is Expect.MUST_ACCEPT_WITH_CHANGE:
        return _accept_violation(m, seed, got)
    return None


def _accept_violation(m: Mutation, seed: Outcome, got: Outcome) -> str | None:
    if not got.accepted:
        return f"rejected with {got.error_kind} at {got.error_offset}, must accept"
    want = seed.events if m.event_count is None else seed.events[:m.event_count]
    if len(got.events) != len(want):
        return f"{len(got.events)} events, expected {len(want)}"
    for j, (a, b) in enumerate(zip(want, got.events)):
        if j == m.event_index:
            kept_a, kept_b = _without(a, m.changed), _without(b, m.changed)
            if kept_a != kept_b:
                diff = sorted(k for k in set(kept_a) | set(kept_b) if kept_a.get(k) != kept_b.get(k))
                return f"event {j}: fields {diff} changed besides {sorted(m.changed)}"
            if m.changed and all(a.get(k) == b.get(k) for k in m.changed):
                return f"event {j}: none of {sorted(m.changed)} changed"
        elif a != b:
            return f"event {j} changed; only event {m.event_index} should"
    return None


_INDEX = re.compile(r"\[\d+\]")


def disagreement(ref: Outcome, got: Outcome, caps: Any) -> tuple[str | None, str | None]:
    """(why `got` disagrees with the oracle's `ref`, a short key naming the kind of difference)
    or (None, None)."""
    from harness.classify import classify
    from harness.expectations import Expectation
    from harness.outcomes import Outcome as Verdict
    from harness.plugins.protocol import ERROR, EVENTS, ErrorInfo, Reply

    def info(o: Outcome) -> ErrorInfo | None:
        return None if o.accepted else ErrorInfo(o.error_kind or "Error", o.error_offset, "")
    exp = Expectation(ref.events, info(ref))
    reply = Reply(EVENTS if got.accepted else ERROR, got.events, info(got))
    v = classify(exp, reply, caps)
    if v.outcome is Verdict.PASS:
        return None, None
    if v.diffs and v.outcome is Verdict.MISMATCH:  # a rejection's partial differences: keyed as the rejection
        d = v.diffs[0]
        key = f"{v.outcome.value}:{d.event_type}:{_INDEX.sub('[]', d.path)}"
    elif v.outcome is Verdict.REJECTED:
        key = f"rejects-accepted:{got.error_kind}"
    else:
        key = f"accepts-rejected:{ref.error_kind}"
    return f"{v.outcome.value} vs the oracle: {v.message}"[:500], key
