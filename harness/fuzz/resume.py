"""The oracle's decode of a seed, kept so each mutant of it is decoded only where it differs.

A mutant shares its seed's bytes up to the first one an operator changed, and usually from the
last one changed to the end. The oracle's state before an event depends only on the bytes before
it (oracle.decoder.Checkpoint), so the events before the last checkpoint inside the shared prefix
are the seed's, and the decode resumes there. It stops at the first event boundary inside the
shared suffix where the state is the seed's again (same offset, same format and Table_maps):
everything after it, the error included, is the seed's. The outcome is the one a decode from
the start gives, for a fraction of the work (issue 14); tests/test_fuzz_resume.py checks that
over every seed and thousands of mutants.

A mutant of another length (an event inserted, dropped or resized) rejoins its seed shifted: from
an event boundary where the state is the seed's, each of its remaining events must be the seed's
event moved by the length difference, the same bytes but the header's log_pos and a CRC32 that
is right for the new bytes (Binlog.assemble re-frames moved events so). The walk reads neither the
offset nor log_pos (oracle/framing.py, past the first event), and no body decoder reads them but
Heartbeat's and Transaction_payload's (the nested events' positions) and every decoder's error
offsets: so over a seed decoded to its end without error, those events' canonical forms are the
seed's with position, next_position and the stored CRC moved (`Shifted`).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Callable

from oracle.checksum import event_crc32
from oracle.decoder import Checkpoint
from oracle.event_types import EventType

from .outcome import Outcome, oracle_decode


# Decoders that read the header's log_pos or put positions in the body (see the module's doc).
_READS_POSITION = frozenset({EventType.HEARTBEAT_LOG_EVENT, EventType.HEARTBEAT_LOG_EVENT_V2,
                             EventType.TRANSACTION_PAYLOAD_EVENT})
_U32 = struct.Struct("<I").unpack_from


@dataclass
class Shifted:
    """The seed's events from `first` on are the mutant's moved by `delta` bytes; `next_positions`
    and `crcs` are the mutant's values of those events' log_pos and stored CRC32 (None: none)."""
    delta: int
    first: int
    next_positions: list[int | None]
    crcs: list[int | None]

    def events(self, seed: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
        """The mutant's canonical events for the seed's events from start (>= first) on."""
        out = []
        delta, first, next_positions, crcs = self.delta, self.first, self.next_positions, self.crcs
        for j in range(start, len(seed)):
            e, k = seed[j], j - first
            moved = e.copy()
            moved["position"] = e["position"] + delta
            moved["next_position"] = next_positions[k]
            if crcs[k] is not None:
                c = e["checksum"]
                moved["checksum"] = {"algorithm": c["algorithm"], "stored": crcs[k], "verified": c["verified"]}
            out.append(moved)
        return out


@dataclass(frozen=True)
class _Frame:
    """What SeedDecode.shifted needs of one of the seed's events."""
    position: int
    size: int
    crc: bool  # a verified CRC32 in its last 4 bytes
    log_pos: bool  # a log_pos in the header (binlog v3/v4)
    movable: bool  # its decode reads neither log_pos nor an unverified checksum

    @classmethod
    def of(cls, e: dict[str, Any]) -> "_Frame":
        c = e["checksum"]
        return cls(e["position"], e["event_size"], c["stored"] is not None, e["next_position"] is not None,
                   e["type_code"] not in _READS_POSITION and (c["stored"] is None or c["verified"] is True))


@dataclass
class SeedDecode:
    data: bytes
    outcome: Outcome
    checkpoints: list[Checkpoint] = field(default_factory=list)  # ordered by offset
    _frames: list[_Frame] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, data: bytes) -> "SeedDecode":
        """Decode data from the start, keeping the checkpoints. Exceptions other than a
        BinlogError (a crash) escape, as from oracle_parse."""
        checkpoints: list[Checkpoint] = []
        return cls(data, oracle_decode(data, checkpoints=checkpoints), checkpoints)

    def _first_index(self, shared: Callable[[int], bool], last_shared: bool) -> int:
        """Binary search over the checkpoints for a monotone predicate on their offsets."""
        lo, hi = 0, len(self.checkpoints)
        while lo < hi:
            mid = (lo + hi) // 2
            if shared(self.checkpoints[mid].offset) == last_shared:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def resume_point(self, mutant: bytes) -> Checkpoint | None:
        """The last checkpoint whose whole prefix mutant shares (None: not even the first)."""
        seed = self.data
        n = self._first_index(lambda off: mutant[:off] == seed[:off], True)
        return self.checkpoints[n - 1] if n else None

    def rejoin_points(self, mutant: bytes) -> dict[int, Checkpoint]:
        """Checkpoints (by offset) from which mutant has the seed's bytes to the end."""
        seed = self.data
        if len(mutant) != len(seed):
            return {}
        n = self._first_index(lambda off: mutant[off:] != seed[off:], True)
        return {cp.offset: cp for cp in self.checkpoints[n:]}

    def shifted(self, mutant: bytes) -> Shifted | None:
        """How many of the seed's last events mutant has moved by its change of length (module
        doc), None when not even the last one, the length is the same or the seed is rejected."""
        delta = len(mutant) - len(self.data)
        if not delta or not self.outcome.accepted:
            return None
        seed, events = self.data, self.outcome.events
        if self._frames is None:
            self._frames = [_Frame.of(e) for e in events]
        frames = self._frames
        head_end = frames[0].position + frames[0].size
        if mutant[:head_end] != seed[:head_end]:
            return None  # the first event (the format in force) changed or went: nothing moves as the seed's
        next_positions: list[int | None] = []
        crcs: list[int | None] = []
        first = len(events)
        while first > 1:  # the first event has no checkpoint
            f = frames[first - 1]
            s, n = f.position, f.size
            m = s + delta
            if m < 4 or not f.movable:
                break
            end = n - 4 if f.crc else n
            if not f.log_pos:
                if mutant[m:m + end] != seed[s:s + end]:
                    break
                log_pos = None
            else:
                if mutant[m:m + 13] != seed[s:s + 13] or mutant[m + 17:m + end] != seed[s + 17:s + end]:
                    break
                log_pos = _U32(mutant, m + 13)[0]
            stored = None
            if f.crc:
                stored = _U32(mutant, m + end)[0]
                if event_crc32(mutant[m:m + n]) != stored:
                    break
            next_positions.append(log_pos)
            crcs.append(stored)
            first -= 1
        if first == len(events):
            return None
        next_positions.reverse()
        crcs.reverse()
        return Shifted(delta, first, next_positions, crcs)

    def parse(self, mutant: bytes) -> Outcome:
        """What oracle_parse(mutant) gives, decoding only where mutant differs from the seed."""
        start = self.resume_point(mutant)
        shift = self.shifted(mutant)
        if shift is None:
            rejoin = self.rejoin_points(mutant)
        else:  # by the mutant's offsets
            rejoin = {cp.offset + shift.delta: cp for cp in self.checkpoints if cp.events >= shift.first}
        met: list[Checkpoint] = []

        def back_in_step(here: Checkpoint) -> bool:
            theirs = rejoin.get(here.offset)
            if theirs is not None and here.same_state(theirs):
                met.append(theirs)
                return True
            return False
        seed = self.outcome
        head = seed.events[:start.events] if start else ()
        got = oracle_decode(mutant, head, resume=start, stop=back_in_step if rejoin else None)
        if met and shift is not None:  # the seed decoded to its end: so does the mutant
            got.events += shift.events(seed.events, met[0].events)
        elif met:
            got.events += seed.events[met[0].events:]
            got.error_kind, got.error_offset, got.error_message = seed.error_kind, seed.error_offset, seed.error_message
        return got
