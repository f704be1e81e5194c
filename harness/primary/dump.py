"""COM_BINLOG_DUMP and COM_BINLOG_DUMP_GTID: the binlog sender, after mysql-server
sql/rpl_binlog_sender.cc (Binlog_sender::run / send_binlog / send_events / fake_rotate_event /
send_format_description_event / send_heartbeat_event) and MariaDB sql/sql_repl.cc
(mysql_binlog_send, which does the same steps):

- before each file, an artificial Rotate (timestamp 0, log_pos 0, LOG_EVENT_ARTIFICIAL_F) naming
  the file and the start position, checksummed per the algorithm in force (the client's announced
  one before the first Format_description, the file's after it);
- the file's Format_description with LOG_EVENT_BINLOG_IN_USE_F cleared, and, when the dump
  starts past it, log_pos and `created` zeroed (checksum recomputed);
- the events from the start position, each in one logical packet after a 0x00 byte, streamed from
  the file (16 MB split by the packet layer);
- at the end: EOF for a non-blocking dump (BINLOG_DUMP_NON_BLOCK, or server_id 0); otherwise a
  heartbeat every @master_heartbeat_period nanoseconds until the client leaves, naming where the
  client is: the end of the last file, or, when that file ends with a Rotate (its server's FLUSH
  went on into a file that is not served), the file and position the Rotate names.
Errors are ERR 1236 with the server's message, detailed with the coordinates read so far once a
file is open. The connection ends after a dump either way.
"""
from __future__ import annotations

import os
import struct
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable

from oracle.checksum import CHECKSUM_LEN, ChecksumAlg
from oracle.decoder import new_context
from oracle.event_types import EventType as T
from oracle.event_types import HeaderFlag
from oracle.events import DECODERS
from oracle.fde import has_checksum_descriptor, peek_server_version
from oracle.framing import MAGIC, walk
from oracle.header import V4_HEADER, V4_HEADER_LEN, parse_header
from oracle.reader import Reader
from oracle.wire.packets import EofPacket, ErrPacket, lenenc_int

from . import mariadb
from .client_groups import ClientGroups
from .conn import PacketIO
from .gtid import MariadbState, MysqlGtidSet
from .served import ServedLogs

BIN_LOG_HEADER_SIZE = 4
BINLOG_DUMP_NON_BLOCK = 0x01
BINLOG_THROUGH_GTID = 0x04  # MySQL COM_BINLOG_DUMP_GTID
ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236
SUPERSEDED_POLL = 0.5  # seconds between checks, at the end, for a second dump of the same replica
ER_SLAVE_SAME_ID = 4052  # MariaDB's code for the dump a second one of the same replica ended
MAX_EVENT_SIZE = 1 << 30  # the server's PACKET_MAX_SIZE
_ST_CREATED_OFFSET = V4_HEADER_LEN + 2 + 50
_U32 = struct.Struct("<I")

_TRUNCATED = "binlog truncated in the middle of event; consider out of disk space on master"
# The servers' texts, by flavor (MySQL >= 8.0.26 says "source"/"Replica": see _text).
MESSAGES: dict[str, dict[str, str]] = {
    "no_file": {"mysql": "Could not find first log file name in binary log index file",
                "mariadb": "Could not find first log file name in binary log index file"},
    "pos_below_4": {"mysql": "Client requested master to start replication from position < 4",
                    "mariadb": "Client requested master to start replication from impossible position"},
    "pos_past_end": {"mysql": "Client requested master to start replication from position > file size",
                     "mariadb": "Client requested master to start replication from impossible position"},
    "no_fde": {"mysql": "Could not find format_description_event in binlog file",
               "mariadb": "Failed to find format descriptor event in start of binlog"},
    "checksum": {"mysql": "Slave can not handle replication events with the checksum that master is "
                          "configured to log",
                 "mariadb": "Slave can not handle replication events with the checksum that master is "
                            "configured to log"},
    "truncated": {"mysql": _TRUNCATED, "mariadb": _TRUNCATED},
    "bogus": {"mysql": "bogus data in log event", "mariadb": "bogus data in log event"},
    "too_large": {"mysql": "log event entry exceeded max_allowed_packet; Increase max_allowed_packet on master",
                  "mariadb": "log event entry exceeded max_allowed_packet; Increase max_allowed_packet on master"},
    "shutdown": {"mysql": "Server shutdown in progress", "mariadb": "Server shutdown in progress"},
    # a second dump of the same replica (running_dumps.py), as 5.7, 9.7 and MariaDB 11.8 word it
    "same_id": {"mysql": "A slave with the same server_uuid/server_id as this slave has connected to the master",
                "mysql-newer": "A replica with the same server_uuid/server_id as this replica has connected to the "
                               "source",
                "mariadb": "A slave with the same server_id is already connected"},
    # send_event_to_slave: Gtid_log_event::make_compatible_event failed (mariadb.GtidNotReplaceable)
    "gtid_not_replaceable": {"mysql": "", "mariadb": "Failed to replace GTID event with backwards-compatible "
                                                     "event: corrupt event."},
    # find_first_log_not_in_gtid_set: ER_MASTER_HAS_PURGED_REQUIRED_GTIDS as 5.7 words it (8.0.23+
    # add the GTID sets, which harness serve does not)
    "purged": {"mysql": "The slave is connecting using CHANGE MASTER TO MASTER_AUTO_POSITION = 1, but the "
                        "master has purged binary logs containing GTIDs that the slave requires.",
               "mariadb": ""},
}


def frame_problem(header: bytes, left: int) -> str | None:
    """Why the sender cannot send the event that `header` starts, `left` bytes of file from its
    start: the MESSAGES key of the ERR 1236 that ends the dump, or None. The real sender reads an
    event whole before it sends a byte of it, so a cut last event is never half sent; we stream
    events, so the length is checked first. (harness/fuzz/stream_frames.py frames with it too.)"""
    if len(header) < V4_HEADER_LEN or left < V4_HEADER_LEN:
        return "truncated"
    size = _U32.unpack_from(header, 9)[0]
    if size < V4_HEADER_LEN:
        return "bogus"
    if size > MAX_EVENT_SIZE:
        return "too_large"
    return "truncated" if size > left else None


class DumpError(Exception):
    """Ends the dump with ERR `code` (1236 but for MariaDB's ER_SLAVE_SAME_ID) and this message."""

    def __init__(self, message: str, code: int = ER_MASTER_FATAL_ERROR_READING_BINLOG) -> None:
        super().__init__(message)
        self.code = code


class GtidStartError(DumpError):
    """A MariaDB GTID start refused: the message as it is, without the coordinates read."""


@dataclass
class DumpRequest:
    file: str
    pos: int
    flags: int
    server_id: int
    mysql_exclude: MysqlGtidSet | None = None
    mariadb_start: MariadbState | None = None
    mariadb_strict: bool = False             # @slave_gtid_strict_mode
    mariadb_ignore_duplicates: bool = False  # @slave_gtid_ignore_duplicates


@dataclass
class DumpOptions:
    server_id: int
    slave_checksum: int | None  # from @source/@master_binlog_checksum; None: the client never said
    heartbeat_ns: int
    flavor: str
    newer_names: bool  # MySQL says "source"/"Replica" in these messages (MYSQL_NEWER_SENDER_SINCE)
    mariadb_capability: int = 0
    version: tuple[int, ...] = ()  # the served server's
    # ServeOptions.heartbeats_after: event ends where the server is idle for a heartbeat period
    heartbeats_after: frozenset[tuple[str, int]] = frozenset()

    @property
    def mysql_heartbeat_v2(self) -> bool:
        """MySQL 8.0.26 added Heartbeat_log_event_v2; older servers ignore the dump flag (captures
        of 5.6.24 and 5.7.29 send v1, 8.0.31 v2)."""
        return self.flavor == "mysql" and self.version >= (8, 0, 26)

    @property
    def heartbeat_per_skipped_event(self) -> bool:
        """Before MYSQL_NEWER_SENDER_SINCE, a GTID dump sends a heartbeat after every event it
        skips (at that event's end), not one after the skipped groups (captures of 5.6.24,
        5.7.29 and 8.0.31)."""
        return self.flavor == "mysql" and self.version < MYSQL_NEWER_SENDER_SINCE


# Captured: MySQL 8.0.31 still says "Slave"/"master" and sends a heartbeat per skipped event; 9.7
# says "Replica"/"source" and sends one after the skipped groups. The release in between that
# changed both is not captured; 8.1.0 is assumed.
MYSQL_NEWER_SENDER_SINCE = (8, 1, 0)


def _crc(event: bytearray | bytes) -> bytes:
    return _U32.pack(zlib.crc32(event))


def artificial_event(type_code: int, server_id: int, log_pos: int, flags: int, body: bytes, crc: bool) -> bytes:
    size = V4_HEADER_LEN + len(body) + (CHECKSUM_LEN if crc else 0)
    event = V4_HEADER.pack(0, type_code, server_id, size, log_pos, flags) + body
    return event + _crc(event) if crc else event


def rotate_body(name: str, pos: int) -> bytes:
    """A Rotate event's body: the next file's first position, then its name."""
    return struct.pack("<Q", pos) + name.encode()


def fake_rotate(name: str, pos: int, server_id: int, crc: bool) -> bytes:
    return artificial_event(T.ROTATE_EVENT, server_id, 0, HeaderFlag.LOG_EVENT_ARTIFICIAL_F,
                            rotate_body(name, pos), crc)


def rotate_target(event: bytes, crc: bool) -> tuple[str, int] | None:
    """(file, position) a v4 Rotate event names, or None when its body is too short to say."""
    body = event[V4_HEADER_LEN:len(event) - (CHECKSUM_LEN if crc else 0)]
    if len(body) < 8:
        return None
    return body[8:].decode("utf-8", "replace"), struct.unpack_from("<Q", body)[0]


def heartbeat(name: str, log_pos: int, server_id: int, crc: bool) -> bytes:
    return artificial_event(T.HEARTBEAT_LOG_EVENT, server_id, log_pos & 0xFFFFFFFF, 0, name.encode(), crc)


USE_HEARTBEAT_EVENT_V2 = 0x02  # MySQL dump flag (8.0.26+ replicas); on MariaDB the bit means Annotate_rows


def heartbeat_v2(name: str, log_pos: int, server_id: int, crc: bool) -> bytes:
    """Heartbeat_log_event_v2: (type, length, value) fields, 1 = file name, 2 = position (length
    encoded, so not limited to 4 GiB), then the end mark 0; the header's log_pos as in v1."""
    pos = lenenc_int(log_pos)
    body = b"\x01" + lenenc_int(len(name.encode())) + name.encode() + b"\x02" + lenenc_int(len(pos)) + pos + b"\x00"
    return artificial_event(T.HEARTBEAT_LOG_EVENT_V2, server_id, log_pos & 0xFFFFFFFF, 0, body, crc)


def checksum_of_fde(fde: bytes) -> int | None:
    version = peek_server_version(fde, V4_HEADER_LEN, len(fde), BIN_LOG_HEADER_SIZE)
    return fde[-CHECKSUM_LEN - 1] if has_checksum_descriptor(version) else None


def prepared_fde(fde: bytes, clear_log_pos: bool, clear_created: bool, crc: bool) -> bytes:
    """send_format_description_event: in-use flag off; log_pos and `created` zeroed mid-file
    (MariaDB also zeroes `created` for a GTID start), then the checksum fixed."""
    ev = bytearray(fde)
    ev[17] &= ~HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F & 0xFF
    if clear_log_pos:
        ev[13:17] = b"\0\0\0\0"
    if clear_log_pos or clear_created:
        ev[_ST_CREATED_OFFSET:_ST_CREATED_OFFSET + 4] = b"\0\0\0\0"
        if crc:
            ev[-CHECKSUM_LEN:] = _crc(ev[:-CHECKSUM_LEN])
    return bytes(ev)


class _MysqlGtidFilter:
    """Binlog_sender::skip_event: a GTID event opens a group that is skipped when the client's set
    holds it; Rotate never is; other events follow the group they are in."""

    def __init__(self, exclude: MysqlGtidSet) -> None:
        self.exclude = exclude
        self.ctx = new_context(verify_checksums=False)
        self.in_group = False

    def reads(self, type_code: int) -> bool:
        return self.in_group or type_code in (T.GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT)

    def skip(self, event: bytes, crc: bool) -> bool:
        type_code = event[4]
        if type_code == T.ROTATE_EVENT:
            self.in_group = False
        elif type_code in (T.GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT):
            header = parse_header(event, 0, V4_HEADER_LEN)
            body = DECODERS[type_code](Reader(event, V4_HEADER_LEN, len(event) - (CHECKSUM_LEN if crc else 0)),
                                       self.ctx, header)
            self.in_group = self.exclude.contains(body["sid"], body.get("tag") or "", _int(body["gno"]))
        return self.in_group


class _MariadbGtidFilter:
    def __init__(self, state: MariadbState, strict: bool, logs: ServedLogs) -> None:
        self.skipper = mariadb.GroupSkipper(state)
        self.tracker = mariadb.BinlogStateTracker(state)
        self.state, self.strict = state, strict
        self.reached: set[int] = set()  # domains whose requested GTID (server and seq_no) was seen
        # START_ON_EMPTY_DOMAIN: a domain the binlogs never saw counts as reached
        self.empty = {d for d in state.seq_by_domain if d not in logs.mariadb_gtids}

    def pos_reached(self) -> bool:
        """slave_connection_state::is_pos_reached: every requested domain reached or empty."""
        return all(d in self.reached or d in self.empty for d in self.state.seq_by_domain)

    def _check_strict(self, event: bytes) -> None:
        if event[4] != T.GTID_EVENT or len(event) < V4_HEADER_LEN + 12:
            return
        hole = mariadb.strict_hole(event, self.state, self.reached) if self.strict else None
        if hole:
            raise GtidStartError(hole)
        seq, domain = struct.unpack_from("<QI", event, V4_HEADER_LEN)
        if _U32.unpack_from(event, 5)[0] == self.state.server_by_domain.get(domain) \
                and seq >= self.state.seq_by_domain.get(domain, seq + 1):
            self.reached.add(domain)

    def reads(self, type_code: int) -> bool:
        return bool(self.skipper.mode) or type_code in (T.GTID_EVENT, T.GTID_LIST_EVENT)

    def skip(self, event: bytes, crc: bool) -> bool:
        self._check_strict(event)
        self.tracker.note(event)
        return self.skipper.skip(event, crc)

    def fake_gtid_list(self) -> bytes | None:
        """The artificial Gtid_list's body when it is due (then not again)."""
        if not self.tracker.pending or self.skipper.mode:
            return None
        self.tracker.pending = False
        return self.tracker.gtid_list_body()


def _int(v: object) -> int:
    return int(v["value"]) if isinstance(v, dict) else int(v)  # type: ignore[index,arg-type]


class BinlogSender:
    def __init__(self, io: PacketIO, logs: ServedLogs, req: DumpRequest, opts: DumpOptions,
                 stop: threading.Event, log: Callable[[str], None],
                 group: tuple[ClientGroups, str] | None = None,
                 starts: list[tuple[str, int]] | None = None,
                 superseded: threading.Event | None = None) -> None:
        self.io, self.logs, self.req, self.opts, self.stop, self.log = io, logs, req, opts, stop, log
        self.superseded = superseded  # set when a second dump of the same replica starts (running_dumps.py)
        self.starts = starts  # where each dump started, (file, position), appended as it starts
        self.group = group  # the client group this dump reads for (client_groups.py), and its name
        self.file_index = 0
        self.event_alg = opts.slave_checksum  # what fake_rotate_event uses before the first FDE
        self.filter: _MysqlGtidFilter | _MariadbGtidFilter | None = None
        if req.mysql_exclude and req.mysql_exclude.intervals:
            self.filter = _MysqlGtidFilter(req.mysql_exclude)
        elif req.mariadb_start is not None:
            self.filter = _MariadbGtidFilter(req.mariadb_start, req.mariadb_strict, logs)
        self.events_sent = 0
        self.files_opened = 0
        self.clear_fde = False  # MySQL GTID start whose first transaction the client has
        # MariaDB 11.4+ index start already at the replica's position: where, and the file's Gtid_list
        self.gtid_list_at_start: tuple[int, bytes] | None = None
        self.file_name = ""  # the file open now, and the coordinates the error details name
        self.last_event_end = 0
        self.read_pos = 0
        self.last_read: tuple[int, int, int] | None = None  # the last event read: start, size, type
        self.rotated_to: tuple[str, int] | None = None  # what the last file's closing Rotate names

    def run(self) -> None:
        try:
            self._run()
        except DumpError as e:
            self.log(f"dump error: {e}")
            self.io.write(ErrPacket(e.code, str(e)).encode())
            self.io.flush()

    # -- messages -------------------------------------------------------------------------------
    def _text(self, key: str) -> str:
        texts = MESSAGES[key]
        if self.opts.newer_names:
            return texts.get("mysql-newer") or texts["mysql"].replace("master", "source").replace("Slave", "Replica")
        return texts[self.opts.flavor]

    def _error(self, key: str) -> DumpError:
        return DumpError(self._text(key))

    def _detailed(self, message: str, code: int = ER_MASTER_FATAL_ERROR_READING_BINLOG) -> DumpError:
        """Once a file is open the server adds where it was (MariaDB: base names; MySQL: index names)."""
        shown = self.file_name if self.opts.flavor == "mariadb" else f"./{self.file_name}"
        return DumpError(f"{message}; the first event '{self.req.file}' at {self.req.pos}, the last event read "
                         f"from '{shown}' at {self.last_event_end}, the last byte read from '{shown}' at "
                         f"{self.read_pos}.", code)

    def _impossible_position(self) -> DumpError:
        """MariaDB's check_start_offset text."""
        name = self.req.file
        return DumpError(f"{self._text('pos_past_end')}; the first event '{name}' at {self.req.pos}, the last event "
                         f"read from '{name}' at 4, the last byte read from '{name}' at 4.")

    # -- the dump -------------------------------------------------------------------------------
    def _crc_on(self) -> bool:
        return self.event_alg == ChecksumAlg.CRC32

    def _mysql_gtid_start(self, exclude: MysqlGtidSet) -> int:
        """Binlog_sender::check_start_file / find_first_log_not_in_gtid_set: the last file whose
        Previous_gtids the client's set covers. If the client's set holds the file's first GTID,
        the Format_description goes out with `created` zeroed and log_pos kept (as the MySQL 9.7
        capture shows: m_gtid_clear_fd_created_flag)."""
        for i in range(len(self.logs.files) - 1, -1, -1):
            name = self.logs.files[i].name
            if exclude.covers(self.logs.previous_gtids.get(name, {})):
                first = self.logs.first_gtid.get(name)
                self.clear_fde = first is not None and exclude.contains(*first)
                return i
        raise self._error("purged")

    def _mariadb_gtid_start(self, state: MariadbState) -> tuple[int, int]:
        """check_slave_start_position, gtid_find_binlog_file; an 11.4+ server then starts where its
        GTID index says. A requested GTID that is an entry of the start file's Gtid_list leaves
        the state: that domain starts at the file's beginning, with nothing to skip or wait for."""
        refused = mariadb.start_position_error(self.logs, state, self.req.mariadb_ignore_duplicates)
        if refused:
            raise GtidStartError(refused)
        i = mariadb.start_file(self.logs, state)
        at_start = self.logs.gtid_list_gtids.get(self.logs.files[i].name, set())
        for domain in [d for d in state.seq_by_domain if (d, state.server_by_domain.get(d), state.seq_by_domain[d])
                       in at_start]:
            state.remove(domain)
        if self.logs.version < mariadb.GTID_INDEX_SINCE or not isinstance(self.filter, _MariadbGtidFilter):
            return i, BIN_LOG_HEADER_SIZE
        start, gtid_list = mariadb.gtid_index_start(self.logs.files[i].path)
        if gtid_list is not None:
            self.filter.tracker.note(gtid_list)
            if not state.seq_by_domain:
                # nothing left to reach (an empty state, or one the Gtid_list holds): the real
                # 11.8 sends the fake Gtid_list of the index record's state at once, at the start
                # (tests/test_primary_mariadb_gtid_errors.py, empty_state)
                self.gtid_list_at_start = start, gtid_list
        return i, start

    def _start(self) -> tuple[int, int]:
        if self.req.mariadb_start is not None:
            return self._mariadb_gtid_start(self.req.mariadb_start)
        if self.req.mysql_exclude is not None and not self.req.file:
            return self._mysql_gtid_start(self.req.mysql_exclude), BIN_LOG_HEADER_SIZE
        i = self.logs.find(self.req.file) if self.req.file else 0
        if i is None:
            raise self._error("no_file")
        start = self.req.pos
        if start < BIN_LOG_HEADER_SIZE or start > self.logs.files[i].size:
            if self.opts.flavor == "mariadb":
                raise self._impossible_position()
            raise self._error("pos_below_4" if start < BIN_LOG_HEADER_SIZE else "pos_past_end")
        return i, start

    def _run(self) -> None:
        i, start = self._start()
        if self.starts is not None:
            self.starts.append((self.logs.files[i].name, start))
        while True:
            served = self.logs.files[i]
            self.io.write(b"\0" + fake_rotate(served.name, start, self.opts.server_id, self._crc_on()))
            self.file_name, self.last_event_end, self.read_pos = served.name, start, start
            self.file_index = i
            try:
                end = self._send_file(served.path, start)
            except GtidStartError:
                raise
            except DumpError as e:
                raise self._detailed(str(e), e.code) from None
            if i + 1 < len(self.logs.files):
                i, start = i + 1, BIN_LOG_HEADER_SIZE
                continue
            if self.req.flags & BINLOG_DUMP_NON_BLOCK or self.req.server_id == 0:
                self.io.write(EofPacket().encode())
                self.io.flush()
                return
            self._wait_with_heartbeats(*(self.rotated_to or (served.name, end)))
            return

    def _send_file(self, path: Path, start: int) -> int:
        with open(path, "rb", buffering=1 << 20) as f:
            f.read(len(MAGIC))
            fde = self._read_event(f, BIN_LOG_HEADER_SIZE)
            self.read_pos = self.last_event_end = BIN_LOG_HEADER_SIZE + len(fde)
            if self.opts.flavor == "mariadb":  # MariaDB's coordinates stay at the start until an event is sent
                self.last_event_end = start
            if fde[4] != T.FORMAT_DESCRIPTION_EVENT:
                raise self._error("no_fde")
            self.event_alg = checksum_of_fde(fde)
            if self.opts.slave_checksum is None and self._crc_on():
                raise self._error("checksum")
            first = self.files_opened == 0
            self.files_opened += 1
            clear_log_pos = start > BIN_LOG_HEADER_SIZE
            if isinstance(self.filter, _MariadbGtidFilter):  # keep the replica's temporary tables
                clear_created = not self.filter.pos_reached()
            else:
                clear_created = first and self.clear_fde
            self.io.write(b"\0" + prepared_fde(fde, clear_log_pos, clear_created, self._crc_on()))
            if first and self.gtid_list_at_start is not None:
                # its body as the file has it (an empty list is 2 bytes longer than count 0 alone)
                at, gtid_list = self.gtid_list_at_start
                body = gtid_list[V4_HEADER_LEN:len(gtid_list) - (4 if self._crc_on() else 0)]
                self.io.write(b"\0" + artificial_event(T.GTID_LIST_EVENT, self.opts.server_id, at,
                                                       HeaderFlag.LOG_EVENT_ARTIFICIAL_F, body, self._crc_on()))
            pos = BIN_LOG_HEADER_SIZE + len(fde)
            if start > BIN_LOG_HEADER_SIZE:
                f.seek(start)
                pos = start
                if self.opts.flavor == "mysql" and self.opts.version < (5, 7):
                    # 5.6's mysql_binlog_send (before Binlog_sender) counts from the requested
                    # start once it seeks there (the 5.6.24 capture)
                    self.last_event_end = start
            if isinstance(self.filter, _MysqlGtidFilter):
                self.filter.ctx.format = next(walk(MAGIC + fde, verify_checksums=False)).format
            end = self._send_events(f, pos)
            self.rotated_to = self._rotate_at_end(f)
            return end

    def _rotate_at_end(self, f: BinaryIO) -> tuple[str, int] | None:
        """Where the file's last event, when it is a Rotate, sends the client: a real server
        goes on there (Binlog_sender::run: find_next_log), and its heartbeats name that file
        (send_heartbeat_event: m_linfo). A client that got the Rotate is at that file and
        position; heartbeats naming the file it left are refused by a MySQL 8.0+ replica
        (MY-013118, then "could not queue event from source"). docs/primary.md: why not more."""
        if self.last_read is None or self.last_read[2] != T.ROTATE_EVENT:
            return None
        start, size, _ = self.last_read
        f.seek(start)
        return rotate_target(f.read(size), self._crc_on())

    def _read_event(self, f: BinaryIO, pos: int) -> bytes:
        header = f.read(V4_HEADER_LEN)
        size = self._checked_size(header)
        rest = f.read(size - V4_HEADER_LEN)
        if len(rest) != size - V4_HEADER_LEN:
            raise self._error("truncated")
        return header + rest

    def _checked_size(self, header: bytes, left: int = MAX_EVENT_SIZE) -> int:
        problem = frame_problem(header, left)
        if problem is not None:
            raise self._error(problem)
        return _U32.unpack_from(header, 9)[0]

    def _after_filtered_event(self, pos: int, crc: bool) -> None:
        """MariaDB: the fake Gtid_list once the replica's start position is passed."""
        body = self.filter.fake_gtid_list() if isinstance(self.filter, _MariadbGtidFilter) else None
        if body is not None:
            self.io.write(b"\0" + artificial_event(T.GTID_LIST_EVENT, self.opts.server_id, pos,
                                                   HeaderFlag.LOG_EVENT_ARTIFICIAL_F, body, crc))

    def _whole_event(self, f: BinaryIO, header: bytes, size: int) -> bytes:
        event = header + f.read(size - V4_HEADER_LEN)
        if len(event) != size:
            raise self._error("truncated")
        return event

    def _rewritten_for_old_replica(self, type_code: int) -> bool:
        """MariaDB replicas below CAPABILITY_GTID get some events rewritten (mariadb.compatible_event)."""
        return (self.opts.flavor == "mariadb" and self.opts.mariadb_capability < mariadb.CAPABILITY_GTID
                and type_code in mariadb.REWRITTEN_TYPES)

    def _left_out(self, type_code: int) -> bool:
        return (self.opts.flavor == "mariadb"
                and mariadb.left_out(type_code, self.req.flags, self.opts.mariadb_capability))

    def _send_events(self, f: BinaryIO, pos: int) -> int:
        skipped_to = 0
        self.last_read = None
        crc = self._crc_on()
        file_size = os.fstat(f.fileno()).st_size  # frame_problem: a cut event is not half sent
        while True:
            header = f.read(V4_HEADER_LEN)
            if not header:
                break
            self.read_pos = pos + len(header)
            size = self._checked_size(header, file_size - pos)
            type_code = header[4]
            self.last_read = (pos, size, type_code)
            mapped = self.logs.epochs.table_maps.get((self.file_index, pos)) if self.group else None
            if mapped:
                groups, name = self.group  # type: ignore[misc]
                groups.sending(name, (self.file_index, pos), mapped, self.logs.epochs, self.io.flush, self.stop)
            if self.filter and self.filter.reads(type_code):
                event = self._whole_event(f, header, size)
                pos += size
                if self.filter.skip(event, crc):
                    if self.opts.heartbeat_per_skipped_event and isinstance(self.filter, _MysqlGtidFilter):
                        self.io.write(b"\0" + self._heartbeat(self.file_name, pos, crc))
                    else:
                        skipped_to = pos
                    self._after_filtered_event(pos, crc)
                    continue
                if skipped_to and isinstance(self.filter, _MysqlGtidFilter):
                    # tell the client how far the skipped transactions went
                    self.io.write(b"\0" + self._heartbeat(self.file_name, skipped_to, crc))
                skipped_to = 0
                self.io.write(b"\0" + event)
                self._after_filtered_event(pos, crc)
            elif self._rewritten_for_old_replica(type_code):
                event = self._whole_event(f, header, size)
                pos += size
                try:
                    compatible = mariadb.compatible_event(event, self.req.flags, self.opts.mariadb_capability, crc,
                                                          self.logs.version >= mariadb.BEGIN_PADDED_SINCE)
                except mariadb.GtidNotReplaceable:
                    self.read_pos = pos  # the event was read whole; the last event read ends before it
                    raise self._error("gtid_not_replaceable") from None
                if compatible is None:
                    continue
                self.io.write(b"\0" + compatible)
            elif self._left_out(type_code):
                f.seek(size - V4_HEADER_LEN, 1)
                pos += size
                continue
            else:
                try:
                    self.io.write_streamed(1 + size, b"\0" + header, f.read)
                except EOFError:
                    raise self._error("truncated") from None
                pos += size
            self.last_event_end = self.read_pos = pos
            self.events_sent += 1
            if self.stop.is_set():
                raise self._error("shutdown")
            self._check_superseded()
            if self.opts.heartbeat_ns > 0 and (self.file_name, pos) in self.opts.heartbeats_after:
                # idle there for a period: Binlog_sender::wait_new_events sends a heartbeat
                self.io.write(b"\0" + self._heartbeat(self.file_name, pos, crc))
        if skipped_to and isinstance(self.filter, _MysqlGtidFilter):
            self.io.write(b"\0" + self._heartbeat(self.file_name, skipped_to, crc))
        return pos

    def _heartbeat(self, name: str, log_pos: int, crc: bool) -> bytes:
        """Binlog_sender::send_heartbeat_event: v2 when a MySQL client asked for it (dump flag 2)."""
        v2 = self.opts.mysql_heartbeat_v2 and self.req.flags & USE_HEARTBEAT_EVENT_V2
        return (heartbeat_v2 if v2 else heartbeat)(name, log_pos, self.opts.server_id, crc)

    def _check_superseded(self) -> None:
        """A second dump of this replica started (running_dumps.py): end this one as the server does."""
        if self.superseded is not None and self.superseded.is_set():
            raise DumpError(self._text("same_id"), ER_SLAVE_SAME_ID if self.opts.flavor == "mariadb"
                            else ER_MASTER_FATAL_ERROR_READING_BINLOG)

    def _wait_with_heartbeats(self, name: str, end: int) -> None:
        """Wait at the end for the client to leave, a heartbeat each period it asked for; checked
        every SUPERSEDED_POLL seconds for a second dump of the same replica."""
        period = self.opts.heartbeat_ns / 1e9 if self.opts.heartbeat_ns > 0 else 1.0
        next_beat = time.monotonic() + period
        while not self.stop.is_set():
            if self.io.client_left(max(0.0, min(next_beat - time.monotonic(), SUPERSEDED_POLL))):
                return
            try:
                self._check_superseded()
            except DumpError as e:
                raise self._detailed(str(e), e.code) from None
            if time.monotonic() < next_beat:
                continue
            next_beat = time.monotonic() + period
            if self.opts.heartbeat_ns > 0:
                self.io.write(b"\0" + self._heartbeat(name, end, self._crc_on()))
                self.io.flush()
