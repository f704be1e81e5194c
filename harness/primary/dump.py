"""COM_BINLOG_DUMP and COM_BINLOG_DUMP_GTID: the binlog sender, after mysql-server
sql/rpl_binlog_sender.cc (Binlog_sender::run / send_binlog / send_events / fake_rotate_event /
send_format_description_event / send_heartbeat_event):

- before each file, an artificial Rotate (timestamp 0, log_pos 0, LOG_EVENT_ARTIFICIAL_F) naming
  the file and the start position, checksummed per the algorithm in force (the client's announced
  one before the first Format_description, the file's after it);
- the file's Format_description with LOG_EVENT_BINLOG_IN_USE_F cleared, and, when the dump
  starts past it, log_pos and `created` zeroed (checksum recomputed);
- the events from the start position, each in one logical packet after a 0x00 byte, streamed from
  the file (16 MB split by the packet layer);
- at the end: EOF for a non-blocking dump (BINLOG_DUMP_NON_BLOCK, or server_id 0); otherwise a
  heartbeat every @master_heartbeat_period nanoseconds until the client leaves.
Errors are ERR 1236 with the server's message. The connection ends after a dump either way.
"""
from __future__ import annotations

import struct
import threading
import zlib
from dataclasses import dataclass
from typing import BinaryIO, Callable

from oracle.checksum import CHECKSUM_LEN, ChecksumAlg
from oracle.decoder import new_context
from oracle.event_types import EventType as T
from oracle.event_types import HeaderFlag
from oracle.events import DECODERS
from oracle.fde import FormatDescription, has_checksum_descriptor, peek_server_version
from oracle.framing import MAGIC, walk
from oracle.header import V4_HEADER_LEN, parse_header
from oracle.reader import Reader
from oracle.wire.packets import EofPacket, ErrPacket

from .conn import PacketIO
from .gtid import MariadbState, MysqlGtidSet
from .served import ServedLogs

BIN_LOG_HEADER_SIZE = 4
BINLOG_DUMP_NON_BLOCK = 0x01
BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02  # MariaDB
BINLOG_THROUGH_GTID = 0x04  # MySQL COM_BINLOG_DUMP_GTID
ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236
MAX_EVENT_SIZE = 1 << 30  # the server's PACKET_MAX_SIZE
_ST_CREATED_OFFSET = V4_HEADER_LEN + 2 + 50
_U32 = struct.Struct("<I")
_HEADER = struct.Struct("<IBIIIH")


class DumpError(Exception):
    """Ends the dump with ERR 1236 and this message."""


@dataclass
class DumpRequest:
    file: str
    pos: int
    flags: int
    server_id: int
    mysql_exclude: MysqlGtidSet | None = None
    mariadb_start: MariadbState | None = None


@dataclass
class DumpOptions:
    server_id: int
    slave_checksum: int | None  # from @source/@master_binlog_checksum; None: the client never said
    heartbeat_ns: int
    mariadb: bool
    newer_names: bool  # MySQL >= 8.0.26 says "source"/"replica" in these messages


def _msg(opts: DumpOptions, text: str) -> str:
    return text.replace("master", "source").replace("Slave", "Replica") if opts.newer_names else text


def _crc(event: bytearray | bytes) -> bytes:
    return _U32.pack(zlib.crc32(event))


def artificial_event(type_code: int, server_id: int, log_pos: int, flags: int, body: bytes, crc: bool) -> bytes:
    size = V4_HEADER_LEN + len(body) + (CHECKSUM_LEN if crc else 0)
    event = _HEADER.pack(0, type_code, server_id, size, log_pos, flags) + body
    return event + _crc(event) if crc else event


def fake_rotate(name: str, pos: int, server_id: int, crc: bool) -> bytes:
    return artificial_event(T.ROTATE_EVENT, server_id, 0, HeaderFlag.LOG_EVENT_ARTIFICIAL_F,
                            struct.pack("<Q", pos) + name.encode(), crc)


def heartbeat(name: str, log_pos: int, server_id: int, crc: bool) -> bytes:
    return artificial_event(T.HEARTBEAT_LOG_EVENT, server_id, log_pos & 0xFFFFFFFF, 0, name.encode(), crc)


def checksum_of_fde(fde: bytes) -> int | None:
    version = peek_server_version(fde, V4_HEADER_LEN, len(fde), BIN_LOG_HEADER_SIZE)
    return fde[-CHECKSUM_LEN - 1] if has_checksum_descriptor(version) else None


def prepared_fde(fde: bytes, clear_log_pos: bool, crc: bool) -> bytes:
    """send_format_description_event: in-use flag off; log_pos and created zeroed mid-file."""
    ev = bytearray(fde)
    ev[17] &= ~HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F & 0xFF
    if clear_log_pos:
        ev[13:17] = b"\0\0\0\0"
        ev[_ST_CREATED_OFFSET:_ST_CREATED_OFFSET + 4] = b"\0\0\0\0"
        if crc:
            ev[-CHECKSUM_LEN:] = _crc(ev[:-CHECKSUM_LEN])
    return bytes(ev)


class _GroupFilter:
    """Which transactions the client already has (Binlog_sender::skip_event): a GTID event opens
    a group that is skipped when the client's set holds it; Rotate never is; the rest follow."""

    def __init__(self, req: DumpRequest) -> None:
        self.req = req
        self.ctx = new_context(verify_checksums=False)

    def set_format(self, fmt: FormatDescription) -> None:
        self.ctx.format = fmt

    def starts_group(self, type_code: int) -> bool:
        return type_code in (T.GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT, T.GTID_EVENT, T.ROTATE_EVENT)

    def excluded(self, event: bytes, in_group: bool) -> bool:
        type_code = event[4]
        if type_code == T.ROTATE_EVENT:
            return False
        if not self.starts_group(type_code):
            return in_group
        crc = self.ctx.format.checksum_alg == ChecksumAlg.CRC32
        header = parse_header(event, 0, V4_HEADER_LEN)
        body = DECODERS[type_code](Reader(event, V4_HEADER_LEN, len(event) - (CHECKSUM_LEN if crc else 0)),
                                   self.ctx, header)
        if type_code == T.GTID_EVENT:
            state = self.req.mariadb_start
            return state is not None and state.contains(int(body["domain_id"]), _int(body["seq_no"]))
        exclude = self.req.mysql_exclude
        return exclude is not None and exclude.contains(body["sid"], body.get("tag", "") or "", _int(body["gno"]))


def _int(v: object) -> int:
    return int(v["value"]) if isinstance(v, dict) else int(v)  # type: ignore[index,arg-type]


class BinlogSender:
    def __init__(self, io: PacketIO, logs: ServedLogs, req: DumpRequest, opts: DumpOptions,
                 stop: threading.Event, log: Callable[[str], None]) -> None:
        self.io, self.logs, self.req, self.opts, self.stop, self.log = io, logs, req, opts, stop, log
        self.event_alg = opts.slave_checksum  # what fake_rotate_event uses before the first FDE
        self.filter = _GroupFilter(req) if (req.mysql_exclude or req.mariadb_start) else None
        self.events_sent = 0

    def run(self) -> None:
        try:
            self._run()
        except DumpError as e:
            self.log(f"dump error: {e}")
            self.io.write(ErrPacket(ER_MASTER_FATAL_ERROR_READING_BINLOG, str(e)).encode())
            self.io.flush()

    def _crc_on(self) -> bool:
        return self.event_alg == ChecksumAlg.CRC32

    def _start_index(self) -> int:
        if not self.req.file:
            return 0
        i = self.logs.find(self.req.file)
        if i is None:
            raise DumpError("Could not find first log file name in binary log index file")
        return i

    def _run(self) -> None:
        i = self._start_index()
        start = self.req.pos
        if start < BIN_LOG_HEADER_SIZE:
            raise DumpError(_msg(self.opts, "Client requested master to start replication from position < 4"))
        if start > self.logs.files[i].size:
            raise DumpError(_msg(self.opts, "Client requested master to start replication from position > file size"))
        while True:
            served = self.logs.files[i]
            self.io.write(b"\0" + fake_rotate(served.name, start, self.opts.server_id, self._crc_on()))
            end = self._send_file(served.name, served.path, start)
            if i + 1 < len(self.logs.files):
                i, start = i + 1, BIN_LOG_HEADER_SIZE
                continue
            if self.req.flags & BINLOG_DUMP_NON_BLOCK or self.req.server_id == 0:
                self.io.write(EofPacket().encode())
                self.io.flush()
                return
            self._wait_with_heartbeats(served.name, end)
            return

    def _send_file(self, name: str, path, start: int) -> int:
        with open(path, "rb", buffering=1 << 20) as f:
            if f.read(4) != MAGIC:
                raise DumpError("Binlog has bad magic number;  It's not a binary log file that can be used by this version of MySQL")
            fde = self._read_event(f, BIN_LOG_HEADER_SIZE)
            if fde[4] != T.FORMAT_DESCRIPTION_EVENT:
                raise DumpError("Could not find format_description_event in binlog file")
            self.event_alg = checksum_of_fde(fde)
            if self.opts.slave_checksum is None and self._crc_on():
                raise DumpError(_msg(self.opts, "Slave can not handle replication events with the checksum "
                                                "that master is configured to log"))
            if self.filter:
                self.filter.set_format(next(walk(MAGIC + fde, verify_checksums=False)).format)
            self.io.write(b"\0" + prepared_fde(fde, start > BIN_LOG_HEADER_SIZE, self._crc_on()))
            pos = BIN_LOG_HEADER_SIZE + len(fde)
            if start > BIN_LOG_HEADER_SIZE:
                f.seek(start)
                pos = start
            return self._send_events(f, name, pos)

    def _read_event(self, f: BinaryIO, pos: int) -> bytes:
        header = f.read(V4_HEADER_LEN)
        size = self._checked_size(header, pos)
        rest = f.read(size - V4_HEADER_LEN)
        if len(rest) != size - V4_HEADER_LEN:
            raise DumpError("binlog truncated in the middle of event; consider out of disk space on master")
        return header + rest

    def _checked_size(self, header: bytes, pos: int) -> int:
        if len(header) < V4_HEADER_LEN:
            raise DumpError(_msg(self.opts, "binlog truncated in the middle of event; consider out of disk space on master"))
        size = _U32.unpack_from(header, 9)[0]
        if size < V4_HEADER_LEN:
            raise DumpError("bogus data in log event")
        if size > MAX_EVENT_SIZE:
            raise DumpError(_msg(self.opts, "log event entry exceeded max_allowed_packet; Increase max_allowed_packet on master"))
        return size

    def _skip_annotate(self, type_code: int) -> bool:
        return (self.opts.mariadb and type_code == T.ANNOTATE_ROWS_EVENT
                and not self.req.flags & BINLOG_SEND_ANNOTATE_ROWS_EVENT)

    def _send_events(self, f: BinaryIO, name: str, pos: int) -> int:
        in_group, skipped_to = False, 0
        while True:
            header = f.read(V4_HEADER_LEN)
            if not header:
                break
            size = self._checked_size(header, pos)
            type_code = header[4]
            if self.filter and (in_group or self.filter.starts_group(type_code)):
                event = header + f.read(size - V4_HEADER_LEN)
                if len(event) != size:
                    raise DumpError(_msg(self.opts, "binlog truncated in the middle of event; consider out of disk space on master"))
                in_group = self.filter.excluded(event, in_group)
                pos += size
                if in_group:
                    skipped_to = pos
                    continue
                if skipped_to:  # tell the client how far the skipped transactions went
                    self.io.write(b"\0" + heartbeat(name, skipped_to, self.opts.server_id, self._crc_on()))
                    skipped_to = 0
                self.io.write(b"\0" + event)
            elif self._skip_annotate(type_code):
                f.seek(size - V4_HEADER_LEN, 1)
                pos += size
                continue
            else:
                try:
                    self.io.write_streamed(1 + size, b"\0" + header, f.read)
                except EOFError:
                    raise DumpError(_msg(self.opts, "binlog truncated in the middle of event; consider out of disk space on master")) from None
                pos += size
            self.events_sent += 1
            if self.stop.is_set():
                raise DumpError("Server shutdown in progress")
        if in_group and skipped_to:
            self.io.write(b"\0" + heartbeat(name, skipped_to, self.opts.server_id, self._crc_on()))
        return pos

    def _wait_with_heartbeats(self, name: str, end: int) -> None:
        period = self.opts.heartbeat_ns / 1e9 if self.opts.heartbeat_ns > 0 else 1.0
        while not self.stop.is_set():
            if self.io.client_left(period):
                return
            if self.opts.heartbeat_ns > 0:
                self.io.write(b"\0" + heartbeat(name, end, self.opts.server_id, self._crc_on()))
                self.io.flush()
