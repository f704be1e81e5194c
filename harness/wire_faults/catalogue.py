"""The catalogue of wire faults: what the primary does to a COM_BINLOG_DUMP stream, and what a
client must then do. Data only; harness/wire_faults/inject.py does the wire part, verdict.py
judges the client.

Two kinds. A LEGAL fault is the protocol used as allowed (16 MB splits, heartbeats, a slow
network): the client must report the same events as the oracle's decode of the served binlog.
An ERROR fault breaks the stream: the client may fail cleanly (an error, not a hang) having
reported a prefix of the events, or, if it resumes after a cut, report them all exactly once.
Under no fault may it report events or rows that are not in the binlog."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from oracle.wire.packets import MAX_PACKET


class Kind(str, Enum):
    LEGAL = "legal"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class WireAction:
    """What the injector does (`kind`, a key of inject.ACTIONS) and at which event (`at`, a key of
    inject.TRIGGERS); `count` is the action's number (heartbeats, sequence-id step, bytes)."""

    kind: str
    at: str = "first_rows"
    count: int = 1
    delay: float = 0.0  # seconds between writes (the trickle)


@dataclass(frozen=True)
class Fault:
    name: str
    sent: str  # what is done on the wire, in words (docs/wire-faults.md prints it)
    kind: Kind
    action: WireAction | None = None  # None: the served binlog itself is the fault
    payload_size: int | None = None  # serve a binlog with one event of this packet payload (0x00 + event)
    resumable: bool = False  # the connection is lost: a client that resumes must lose nothing
    noticeable: bool = False  # every byte arrives, but one is wrong: reporting all is "unnoticed"

    @property
    def expectation(self) -> str:
        if self.kind is Kind.LEGAL:
            return "the same events as the oracle"
        if self.noticeable:
            return ("a clean failure after a correct prefix (all events and no error: 'unnoticed', a finding); "
                    "never other rows")
        resume = "; a resuming client: the same events, once each" if self.resumable else ""
        return f"the same events, or a clean failure after a correct prefix{resume}; never other rows"


MB16 = MAX_PACKET

# Not a fault: the stream as served. Run first under every client: what a client gets wrong on it
# is its conformance (nox -s conformance), shown on this row and left out of the faults' verdicts.
HEALTHY = Fault("healthy", "the stream as served, no fault (each client's baseline)", Kind.LEGAL)

CATALOGUE: tuple[Fault, ...] = (
    HEALTHY,
    Fault("split-below", "an event whose payload is 0xFFFFFF-1 bytes: one packet", Kind.LEGAL,
          payload_size=MB16 - 1),
    Fault("split-exact", "an event whose payload is 0xFFFFFF bytes: a full packet, then an empty one",
          Kind.LEGAL, payload_size=MB16),
    Fault("split-above", "an event whose payload is 0xFFFFFF+1 bytes: a full packet, then a 1-byte one",
          Kind.LEGAL, payload_size=MB16 + 1),
    Fault("split-double", "an event whose payload is 2*0xFFFFFF bytes: two full packets, then an empty one",
          Kind.LEGAL, payload_size=2 * MB16),
    Fault("event-17mb", "a Query event of 17 MiB (two packets)", Kind.LEGAL, payload_size=17 * 2**20 + 1),
    Fault("heartbeats-between", "a Heartbeat after every event from the Format_description on", Kind.LEGAL,
          WireAction("heartbeat_after", at="every_event")),
    Fault("heartbeat-storm", "5000 Heartbeats before the first rows event", Kind.LEGAL,
          WireAction("heartbeats_before", count=5000)),
    Fault("trickle", "the whole dump in 7-byte writes, 1 ms apart (TCP_NODELAY)", Kind.LEGAL,
          WireAction("trickle", at="every_event", count=7, delay=0.001)),
    Fault("seq-id-skip", "the first rows event's packet has sequence id +1 (one id skipped)", Kind.ERROR,
          WireAction("seq_step", count=1), noticeable=True),
    Fault("seq-id-repeat", "the first rows event's packet repeats the previous sequence id", Kind.ERROR,
          WireAction("seq_step", count=-1), noticeable=True),
    Fault("err-mid-stream", "ERR 1236 in place of the first rows event, then the connection ends", Kind.ERROR,
          WireAction("err")),
    Fault("cut-mid-packet", "the first rows event's packet: header and half its payload, then the "
          "connection is cut", Kind.ERROR, WireAction("cut_mid_packet"), resumable=True),
    Fault("cut-mid-event", "the 17 MiB event's first 0xFFFFFF packet whole, then the connection is cut",
          Kind.ERROR, WireAction("cut_after_first_packet", at="first_big"), payload_size=17 * 2**20 + 1,
          resumable=True),
    Fault("stall-mid-packet", "the first rows event's packet: header and half its payload, then silence on the "
          "open connection, what the client sends left unanswered (up to 300 s: longer than any client's "
          "liveness is judged)", Kind.ERROR, WireAction("stall_mid_packet", count=300), resumable=True),
    Fault("flipped-checksum", "the first rows event with its CRC32 inverted (the client announced CRC32)",
          Kind.ERROR, WireAction("flip_checksum"), noticeable=True),
    Fault("rotate-missing", "a Rotate to binlog.999999 (no such file) in place of the first rows event, "
          "then ERR 1236 'could not find next log'", Kind.ERROR, WireAction("rotate_missing")),
)

BY_NAME = {f.name: f for f in CATALOGUE}
