"""A client's verdict under one fault: its events (or its copy of the binlog) against the
oracle's decode of the served binlog, read with the fault's expectation (catalogue.py)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Sequence

from oracle.checksum import CHECKSUM_LEN, ChecksumAlg
from oracle.framing import walk

from ..compare import ABSENT, EVENT, FieldDiff, compare_events, expected_subset
from ..expectations import Expectation
from ..plugins.base import Capabilities
from ..plugins.protocol import CRASH, ERROR, EVENTS, TIMEOUT, Reply
from ..stream_modes import split_heartbeats
from .catalogue import Fault, Kind


class Verdict(str, Enum):
    SAME = "same"                      # the oracle's events, each once
    CLEAN_FAILURE = "clean-failure"    # an error, after a correct prefix (an ERROR fault: as expected)
    UNNOTICED = "unnoticed"            # all events reported, a broken byte not noticed (a finding)
    REJECTED = "rejected"              # a clean failure under a LEGAL fault
    LOST = "lost-or-duplicated"        # events missing with no error, or repeated, or lost in a resume
    HANG = "hang"                      # no answer within the time limit
    CRASH = "crash"                    # the client died or broke its contract
    INVENTED = "invented-rows"         # events, rows or bytes that are not in the binlog: the worst
    UNAVAILABLE = "unavailable"        # the client cannot run here

    def __str__(self) -> str:
        return self.value


OK = frozenset({Verdict.SAME, Verdict.CLEAN_FAILURE})
FINDING = frozenset({Verdict.UNNOTICED})


def ideal(fault: Fault) -> frozenset[Verdict]:
    """What the fault's expectation asks of every client (catalogue.Fault.expectation)."""
    return frozenset({Verdict.SAME}) if fault.kind is Kind.LEGAL else OK


def acceptable(verdict: Verdict, fault: Fault) -> bool:
    """Within the fault's expectation (a finding under an error fault is recorded, not a violation)."""
    return verdict in ideal(fault) or (fault.kind is Kind.ERROR and verdict in FINDING)


@dataclass(frozen=True)
class Judged:
    verdict: Verdict
    detail: str


def _missing(d: FieldDiff) -> bool:
    return d.path == EVENT and d.actual is ABSENT


def _failed(fault: Fault, detail: str, resumes: bool) -> Judged:
    if fault.kind is Kind.LEGAL:
        return Judged(Verdict.REJECTED, detail)
    if resumes and fault.resumable:
        return Judged(Verdict.LOST, f"declared to resume, but stopped: {detail}")
    return Judged(Verdict.CLEAN_FAILURE, detail)


def judge_reply(fault: Fault, exp: Expectation, reply: Reply, caps: Capabilities, resumes: bool,
                added: Sequence[tuple[int, int]] = (), baseline: Sequence[FieldDiff] = ()) -> Judged:
    """A stream parser's reply (harness/plugins/protocol.py) against the stream expectation.
    `baseline`: the differences the same client shows on the healthy stream of the same file (its
    conformance, reported on the `healthy` row), left out so that a verdict is about the fault."""
    if reply.status == TIMEOUT:
        return Judged(Verdict.HANG, reply.detail)
    if reply.status == CRASH:
        return Judged(Verdict.CRASH, reply.detail)
    if reply.status not in (EVENTS, ERROR):
        return Judged(Verdict.UNAVAILABLE, reply.detail)
    known = {_unplaced(d) for d in baseline}
    diffs = [d for d in compare_events(exp.events, _without_added(exp, reply.events, added), caps)
             if _unplaced(d) not in known and not (fault.noticeable and _as_received(d))]
    wrong = [d for d in diffs if not _missing(d)]
    if wrong:
        verdict = Verdict.LOST if resumes and fault.resumable and _repeats(wrong) else Verdict.INVENTED
        return Judged(verdict, f"{len(wrong)} event(s) or field(s) not in the binlog; first: {wrong[0]}")
    never = {d.index for d in baseline if _missing(d)}  # events the client does not report anyway
    n = len(expected_subset(exp.events, caps))
    missing = {d.index for d in diffs}
    got = f"{n - len(never) - len(missing)} of {n - len(never)} events"
    if reply.status == ERROR:
        if missing and not set(range(min(missing), n)) <= missing | never:
            return Judged(Verdict.LOST, f"{got}, with a gap before the error; first: {diffs[0]}")
        return _failed(fault, f"{got}, then {reply.error}", resumes)
    if missing:
        return Judged(Verdict.LOST, f"{got} and no error; first: {diffs[0]}")
    if fault.noticeable:
        return Judged(Verdict.UNNOTICED, f"all {got}, the fault not reported")
    return Judged(Verdict.SAME, f"all {got}")


def _as_received(d: FieldDiff) -> bool:
    """A stored CRC32 reported as the flipped-checksum fault sent it (inverted, inject.py): the check
    left out, `unnoticed`, not a value of the client's own."""
    return (d.path == "checksum.stored" and isinstance(d.expected, int) and isinstance(d.actual, int)
            and d.actual == d.expected ^ 0xFFFFFFFF)


def _unplaced(d: FieldDiff) -> tuple[str, ...]:
    """A field's difference without its event's index and position: a size fault serves the file
    with one more event, so the events after it (the final Rotate) move, and the client's baseline
    differences there must still be recognised. A missing or extra event keeps its place: without
    it, one event the client never reports would excuse every loss of that type under a fault."""
    if d.path.endswith(EVENT):
        return (str(d),)
    return (d.event_type, d.path, d.where, repr(d.expected), repr(d.actual))


def baseline_diffs(exp: Expectation, reply: Reply, caps: Capabilities) -> list[FieldDiff]:
    """What a client gets wrong on the healthy stream (nothing when it failed: then every fault
    is judged against the oracle alone)."""
    return compare_events(exp.events, reply.events, caps) if reply.status == EVENTS else []


def _without_added(exp: Expectation, events: list[dict[str, Any]],
                   added: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    """The reported events less those the fault put on the wire (a Rotate it sent is not the
    client's invention), by (position, event_size) where no event of the binlog has those, and
    less the heartbeats a client reports (never events of the binlog: a heartbeat fault sends
    them, and the stream mode `heartbeats` checks them one by one)."""
    served = {(e.get("position"), e.get("event_size")) for e in exp.events}
    drop = set(added) - served
    of_the_file, _ = split_heartbeats(events)
    return [e for e in of_the_file if (e.get("position"), e.get("event_size")) not in drop]


def _repeats(wrong: list[FieldDiff]) -> bool:
    """Only extra events (a resume that went back too far), no changed ones."""
    return all(d.path == EVENT and d.expected is ABSENT for d in wrong)


def judge_copy(fault: Fault, served: bytes, copied: bytes, exit_code: int, message: str, hung: bool) -> Judged:
    """A raw copier (mysqlbinlog --read-from-remote-server --raw): its file against the served one."""
    if hung:
        return Judged(Verdict.HANG, message)
    failed = exit_code != 0
    if copied == served:
        if failed:
            return _failed(fault, f"identical copy, then exit {exit_code}: {message}", False)
        if fault.noticeable:
            return Judged(Verdict.UNNOTICED, f"identical copy of {len(served)} bytes, the fault not reported")
        return Judged(Verdict.SAME, f"identical copy of {len(served)} bytes")
    if served.startswith(copied):
        ends = {e.offset + e.header.event_size for e in walk(served, verify_checksums=False)} | {0, 4}
        where = "an event boundary" if len(copied) in ends else "inside an event"
        got = f"the first {len(copied)} of {len(served)} bytes (ends at {where})"
        if failed:
            return _failed(fault, f"{got}, exit {exit_code}: {message}", False)
        return Judged(Verdict.LOST, f"{got} and exit 0")
    differ = [i for i, (a, b) in enumerate(zip(served, copied)) if a != b] if len(copied) == len(served) else []
    if fault.noticeable and differ and set(differ) <= _checksum_bytes(served):
        return Judged(Verdict.UNNOTICED, f"copied with the broken CRC32 as received (bytes {differ[0]}.."
                                         f"{differ[-1]}), exit {exit_code}")
    at = differ[0] if differ else next((i for i, (a, b) in enumerate(zip(served, copied)) if a != b),
                                       min(len(served), len(copied)))
    return Judged(Verdict.INVENTED, f"the copy differs from the binlog at byte {at} (exit {exit_code}): {message}")


def _checksum_bytes(binlog: bytes) -> set[int]:
    """Offsets of the CRC32 fields of a binlog's events: a copier that passes on a flipped one
    wrote what it was sent, not bytes of its own."""
    return {i for e in walk(binlog, verify_checksums=False) if e.checksum_alg == ChecksumAlg.CRC32
            for i in range(e.offset + e.header.event_size - CHECKSUM_LEN, e.offset + e.header.event_size)}
