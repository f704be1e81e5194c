"""What the harness's primary sends for a binlog, and what a stream parser reported of it: the
events framed as harness/primary/dump.py frames them (by event_size alone, as mysql-server's
Binlog_sender does: no checksum, no body decode, ERR 1236 at the first event it cannot frame),
events reported that were never sent, and the reported events put back in the file's places so
that the mutation operators' promises, which name events by index, judge a stream parser right
(harness/fuzz/stream_target.py uses all of it)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from harness.primary.dump import frame_problem
from oracle.event_types import HeaderFlag
from oracle.header import V4_HEADER, V4_HEADER_LEN

from .outcome import Outcome, oracle_parse

UNREPORTED = "_unreported"
SENDER_TYPES = ("ROTATE_EVENT", "FORMAT_DESCRIPTION_EVENT")  # resent by a dump with log_pos 0
HEARTBEATS = ("HEARTBEAT_LOG_EVENT", "HEARTBEAT_LOG_EVENT_V2")
LOG_EVENT_ARTIFICIAL_F = HeaderFlag.LOG_EVENT_ARTIFICIAL_F


@dataclass(frozen=True)
class Frame:
    """One event the primary sends, as its header says, and where it starts in the file."""

    type_code: int
    event_size: int
    log_pos: int
    start: int = 0


@dataclass(frozen=True)
class Served:
    frames: list[Frame]
    whole: bool  # False: the dump ends with ERR 1236 at the first event it cannot frame

    @property
    def end_position(self) -> int:
        """Where the stream ends (file coordinates), 0 when it ends with an ERR instead."""
        return 4 + sum(f.event_size for f in self.frames) if self.whole else 0


def served_frames(data: bytes) -> Served:
    """The events the primary sends for `data`: framed by event_size from byte 4 on, up to the
    first header that is cut, says less than a header, more than 1 GiB, or runs past the end
    (the sender's own check: harness/primary/dump.py frame_problem)."""
    frames, pos, end = [], 4, len(data)
    while pos < end:
        if frame_problem(data[pos:pos + V4_HEADER_LEN], end - pos) is not None:
            return Served(frames, False)
        _ts, type_code, _sid, size, log_pos, _flags = V4_HEADER.unpack_from(data, pos)
        frames.append(Frame(type_code, size, log_pos, pos))
        pos += size
    return Served(frames, True)


def not_streamable(data: bytes) -> str | None:
    """Why a seed cannot be fuzzed over the wire, or None. A relay log (its positions are another
    server's) and a file holding events a client cannot tell from the ones a sender makes up
    (a Rotate or Format_description with log_pos 0 after the first event, an artificial flag, a
    heartbeat) make index-based checks of every mutant of them misfire, as the conformance
    runner's not_a_server_binlog skip says for relay logs."""
    from harness.expectations import Expectation
    from harness.stream_serving import not_a_server_binlog
    events = oracle_parse(data).events
    reason = not_a_server_binlog(Expectation(events))
    if reason is not None:
        return reason
    for j, e in enumerate(events[1:], 1):
        made_up = e.get("type") in SENDER_TYPES and not e.get("next_position")
        flags = (e.get("flags") or {}).get("value", 0) if isinstance(e.get("flags"), dict) else 0
        if made_up or flags & LOG_EVENT_ARTIFICIAL_F or e.get("type") in HEARTBEATS:
            return f"event {j} ({e.get('type')}) looks like one a sender makes up"
    return None


def streamable_seeds(seeds: list[Any], say: Callable[[str], None] | None = None) -> list[Any]:
    """The seeds a stream parser is fuzzed with (not_streamable says which are left out)."""
    kept = [s for s in seeds if not_streamable(s.data) is None]
    if say is not None and len(kept) != len(seeds):
        say(f"stream: {len(seeds) - len(kept)} of {len(seeds)} seeds left out (relay logs, "
            f"events a client cannot tell from a sender's own)")
    return kept


def phantom(served: Served, events: list[dict[str, Any]]) -> str | None:
    """Why the reported events include one the primary did not send, or None."""
    if len(events) > len(served.frames):
        return f"{len(events)} events reported, the primary sent {len(served.frames)}"
    sent = {(f.log_pos, f.event_size) for f in served.frames}
    for j, e in enumerate(events):
        key = (e.get("next_position"), e.get("event_size"))
        if all(isinstance(v, int) for v in key) and key[0] and key not in sent:
            return (f"event {j} ({e.get('type')}, log_pos {key[0]}, size {key[1]}) was never sent: "
                    f"no served event has that log_pos and size")
    return None


def _sent_as(f: Frame, e: dict[str, Any]) -> bool:
    """Whether reported event e is frame f (log_pos 0 inside MariaDB 11 transactions: by size)."""
    return (e.get("event_size") == f.event_size and e.get("next_position") in (f.log_pos, 0, None)
            and e.get("type_code", f.type_code) == f.type_code)


def unreported(data: bytes, f: Frame) -> dict[str, Any]:
    """The header of a sent event the parser does not report (its capabilities say so): the
    operators' promises about it are then kept vacuously, not broken."""
    ts, type_code, server_id, size, log_pos, flags = V4_HEADER.unpack_from(data, f.start)
    return {UNREPORTED: True, "timestamp": ts, "type_code": type_code, "server_id": server_id,
            "event_size": size, "next_position": log_pos, "flags": flags}


def in_file_order(data: bytes, served: Served, events: list[dict[str, Any]], finished: bool,
                  reports: Callable[[int], bool]) -> list[dict[str, Any]]:
    """The reported events in the places of the events in the file, the others (a parser that
    reports only some types: capabilities every_event false; an event the primary did not send)
    as `unreported` headers: the operators' promises name events by their index in the file. Events that align with nothing sent are
    left as reported (phantom() reports them). After the last reported event: all the events
    sent when the parser read to the end, or when the dump itself ends with ERR 1236 (a client
    meets it after all of them); else, the parser having stopped on an error of its own, only
    events of types it never reports: the next one of a type it reports is where it stopped.
    The primary's own gaps (MariaDB events a client did not ask for) are filled in the same way."""
    out: list[dict[str, Any]] = []
    j = 0
    for n, e in enumerate(events):
        k = next((i for i in range(j, len(served.frames)) if _sent_as(served.frames[i], e)), None)
        if k is None:
            return out + events[n:]
        out += [unreported(data, f) for f in served.frames[j:k]]
        out.append(e)
        j = k + 1
    for f in served.frames[j:]:
        if not finished and served.whole and reports(f.type_code):
            break
        out.append(unreported(data, f))
    return out


def reported(out: Outcome) -> Outcome:
    """The outcome without `unreported` placeholders (what is compared with the oracle)."""
    if not any(UNREPORTED in e for e in out.events):
        return out
    return dataclasses.replace(out, events=[e for e in out.events if UNREPORTED not in e])


def as_streamed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as compared for a stream parser: without `position` (see the module docstring) and
    with the Format_description as a server sends it (LOG_EVENT_BINLOG_IN_USE_F cleared)."""
    from harness.expectations import Expectation
    from harness.stream_serving import stream_expectation
    kept = [{k: v for k, v in e.items() if k not in ("position", "_undetermined")} for e in events]
    return stream_expectation(Expectation(kept)).events


def flags_of(data: bytes, f: Frame) -> int:
    return V4_HEADER.unpack_from(data, f.start)[5]
