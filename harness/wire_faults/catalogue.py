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
    # Production faults served from real files: the corpus cases ("profile/case") whose binlogs the
    # dump reads across, first to last, one per flavor ("mysql", "mariadb"): a client is served the
    # one of the flavor it is served anyway (binlogs.py, served_files)
    crosses: tuple[tuple[str, str], ...] = ()

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
    Fault("slow-reader", "the client's process stopped (SIGSTOP: a long GC pause, a blocked consumer) as the 17 MiB "
          "event is written; the primary's write waits net_write_timeout (5 s here), closes the connection as a "
          "server's dump thread does (no ERR), then the client goes on (SIGCONT)", Kind.ERROR,
          WireAction("slow_reader", at="first_big", count=5), payload_size=17 * 2**20 + 1, resumable=True),
    Fault("second-replica", "a second replica with the client's server_id starts a dump before the first rows event "
          "(a clone of the client's host, its configuration copied); the primary ends the client's dump with the ERR a "
          "real server sends: 1236 'A replica with the same server_uuid/server_id as this replica has connected to "
          "the source' (MariaDB: 4052)", Kind.ERROR, WireAction("second_replica")),
    Fault("flipped-checksum", "the first rows event with its CRC32 inverted (the client announced CRC32)",
          Kind.ERROR, WireAction("flip_checksum"), noticeable=True),
    Fault("flush-logs-9.7", "the dump reads across two FLUSH BINARY LOGS of a real MySQL 9.7 server (MariaDB 11.8 "
          "to a client that refuses MySQL), binlog.000001 to .000003: each file's closing Rotate, then the next "
          "file's artificial Rotate, Format_description and Previous_gtids (Gtid_list), as the server sends them",
          Kind.LEGAL, crosses=(("mysql", "mysql-9.7/rotation--row"), ("mariadb", "mariadb-11.8/rotation--row"))),
    Fault("flush-logs-5.7", "as flush-logs-9.7, of a real MySQL 5.7 server (MariaDB 10.5 to a client that refuses "
          "MySQL)", Kind.LEGAL,
          crosses=(("mysql", "mysql-5.7/rotation--row"), ("mariadb", "mariadb-10.5/rotation--row"))),
    Fault("rotate-missing", "a Rotate to binlog.999999 (no such file) in place of the first rows event, "
          "then ERR 1236 'could not find next log'", Kind.ERROR, WireAction("rotate_missing")),
)

BY_NAME = {f.name: f for f in CATALOGUE}
