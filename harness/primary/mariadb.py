"""What MariaDB's binlog sender (sql/sql_repl.cc send_event_to_slave, gtid_find_binlog_file) does
beyond MySQL's: events left out for a replica's @mariadb_slave_capability or dump flags, and a
start from @slave_connect_state (the start file chosen by its Gtid_list, the event groups the
replica already has skipped)."""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from oracle.event_types import EventType as T
from oracle.event_types import HeaderFlag

from .gtid import MariadbState
from .served import ServedLogs

# @mariadb_slave_capability levels (sql/log_event.h)
CAPABILITY_ANNOTATE = 1
CAPABILITY_TOLERATE_HOLES = 2
CAPABILITY_BINLOG_CHECKPOINT = 3
CAPABILITY_GTID = 4
BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02
FL_STANDALONE = 0x01

# Events a replica below the capability does not understand; one that tolerates holes gets none.
_NEEDS = {T.BINLOG_CHECKPOINT_EVENT: CAPABILITY_BINLOG_CHECKPOINT, T.GTID_LIST_EVENT: CAPABILITY_GTID}
# Events that belong to the group of the event before them (Log_event::is_part_of_group).
PART_OF_GROUP = frozenset({T.BEGIN_LOAD_QUERY_EVENT, T.APPEND_BLOCK_EVENT, T.INTVAR_EVENT, T.RAND_EVENT,
                           T.USER_VAR_EVENT, T.TABLE_MAP_EVENT, T.ANNOTATE_ROWS_EVENT, T.WRITE_ROWS_EVENT_V1,
                           T.UPDATE_ROWS_EVENT_V1, T.DELETE_ROWS_EVENT_V1, T.WRITE_ROWS_EVENT,
                           T.UPDATE_ROWS_EVENT, T.DELETE_ROWS_EVENT, T.WRITE_ROWS_COMPRESSED_EVENT_V1,
                           T.UPDATE_ROWS_COMPRESSED_EVENT_V1, T.DELETE_ROWS_COMPRESSED_EVENT_V1,
                           T.WRITE_ROWS_COMPRESSED_EVENT, T.UPDATE_ROWS_COMPRESSED_EVENT,
                           T.DELETE_ROWS_COMPRESSED_EVENT})
_ENDS_TRANSACTION = frozenset({T.XID_EVENT, T.XA_PREPARE_LOG_EVENT})


def _unwanted(type_code: int, dump_flags: int, capability: int) -> bool:
    """Events this replica should not see (Annotate_rows unless asked for, newer event types)."""
    if type_code == T.ANNOTATE_ROWS_EVENT:
        return not dump_flags & BINLOG_SEND_ANNOTATE_ROWS_EVENT
    return capability < _NEEDS.get(type_code, 0)


def left_out(type_code: int, dump_flags: int, capability: int) -> bool:
    """Events the server omits for this replica. (Below CAPABILITY_TOLERATE_HOLES it sends a
    dummy of the same size instead: compatible_event.)"""
    return capability >= CAPABILITY_TOLERATE_HOLES and _unwanted(type_code, dump_flags, capability)


# -- events rewritten for replicas older than GTIDs (send_event_to_slave, Query_log_event::
#    dummy_event / begin_event): same size, so every log_pos stays right ----------------------
_HEADER_LEN, _QUERY_POST_HEADER, _GTID_POST_HEADER = 19, 13, 19
_MIN_USER_VAR = _HEADER_LEN + 4 + 1 + 1      # name length, one name byte, is-NULL
_MIN_QUERY = _HEADER_LEN + _QUERY_POST_HEADER + 1 + 1   # empty db + its terminator, one byte of text
_DUMMY_TEXT = "# Dummy event replacing event type {} that slave cannot handle."
_Q_TIME_ZONE_CODE = 5
_Q_DUMMY = 255
BEGIN_PADDED_SINCE = (11, 5, 0)   # MDEV-7850: begin_event pads with Q_DUMMY, for any GTID size


def _retyped(event: bytes, crc: bool, type_code: int) -> tuple[bytearray, int]:
    """The event without its checksum, its type replaced, THREAD_SPECIFIC off, SUPPRESS_USE on."""
    data = bytearray(event[:len(event) - 4] if crc else event)
    data[4] = type_code
    flags = struct.unpack_from("<H", data, 17)[0]
    flags = (flags & ~HeaderFlag.LOG_EVENT_THREAD_SPECIFIC_F) | HeaderFlag.LOG_EVENT_SUPPRESS_USE_F
    struct.pack_into("<H", data, 17, flags)
    return data, len(data)


def _finished(data: bytearray, crc: bool) -> bytes:
    return bytes(data) + (struct.pack("<I", zlib.crc32(data)) if crc else b"")


def dummy_event(event: bytes, crc: bool) -> bytes | None:
    """A comment-only Query of the same size, or, where that does not fit, a NULL user variable
    @`!dummyvar` (cut to fit). None: under 25 bytes, too short for either."""
    old_type = event[4]
    data, size = _retyped(event, crc, T.QUERY_EVENT)
    if size < _MIN_USER_VAR:
        return None
    if size < _MIN_QUERY:
        name = b"!dummyvar"[:size - (_MIN_USER_VAR - 1)]
        data[4] = T.USER_VAR_EVENT
        data[_HEADER_LEN:] = struct.pack("<I", len(name)) + name + b"\x01"
    else:
        text = _DUMMY_TEXT.format(old_type).encode()
        room = size - (_MIN_QUERY - 1)
        data[_HEADER_LEN:] = bytes(_QUERY_POST_HEADER) + b"\0" + text[:room].ljust(room, b" ")
    return _finished(data, crc)


def begin_event(event: bytes, crc: bool, padded: bool = False) -> bytes | None:
    """A GTID event as the BEGIN Query of the same size. Before 11.5 only the two plain GTID sizes
    fit (an empty time zone status variable takes up the commit id's 2 bytes); from 11.5
    (MDEV-7850) any size does, the status variables filled with Q_DUMMY (255) bytes, as the 11.8
    capture of an XA GTID event shows. None: it does not fit."""
    data, size = _retyped(event, crc, T.QUERY_EVENT)
    plain = _HEADER_LEN + _GTID_POST_HEADER
    if padded:
        room = size - (_HEADER_LEN + _QUERY_POST_HEADER + 1 + len(b"BEGIN"))
        status = {size: bytes([_Q_DUMMY]) * room} if room >= 0 else {}
    else:
        status = {plain: b"", plain + 2: bytes((_Q_TIME_ZONE_CODE, 0))}
    if size not in status:
        return None
    post = bytes(11) + struct.pack("<H", len(status[size]))
    data[_HEADER_LEN:] = post + status[size] + b"\0" + b"BEGIN"
    return _finished(data, crc)


class GtidNotReplaceable(ValueError):
    """Gtid_log_event::make_compatible_event failed (an XA GTID event before 11.5): the server ends
    the dump with ERR 1236."""


def compatible_event(event: bytes, dump_flags: int, capability: int, crc: bool,
                     padded_begin: bool = False) -> bytes | None:
    """What a replica below CAPABILITY_GTID gets for `event` (send_event_to_slave): the event, a
    rewritten one of the same size, or None (left out). GTID events become BEGIN; a standalone
    group's GTID event a dummy, or nothing for a replica that tolerates holes. Below
    CAPABILITY_TOLERATE_HOLES the events left_out would omit become dummies, except Annotate_rows
    for a replica that knows them (capability 1: sent as they are). A GTID event that fits
    neither raises GtidNotReplaceable (send_event_to_slave's "corrupt event")."""
    type_code = event[4]
    if type_code == T.GTID_EVENT and capability < CAPABILITY_GTID:
        if len(event) <= _HEADER_LEN + 12:
            raise GtidNotReplaceable(len(event))
        if not event[_HEADER_LEN + 12] & FL_STANDALONE:
            replaced = begin_event(event, crc, padded_begin)
        elif capability < CAPABILITY_TOLERATE_HOLES:
            replaced = dummy_event(event, crc)
        else:
            return None
        if replaced is None:
            raise GtidNotReplaceable(len(event))
        return replaced
    if not _unwanted(type_code, dump_flags, capability):
        return event
    if capability >= CAPABILITY_TOLERATE_HOLES:
        return None
    if type_code == T.ANNOTATE_ROWS_EVENT and capability >= CAPABILITY_ANNOTATE:
        return event
    return dummy_event(event, crc) or event


def start_file(logs: ServedLogs, state: MariadbState) -> int:
    """gtid_find_binlog_file: the last file whose starting Gtid_list the replica's state covers
    (every domain at or past the list's sequence number)."""
    for i in range(len(logs.files) - 1, -1, -1):
        start = logs.gtid_lists.get(logs.files[i].name, {})
        if all(state.seq_by_domain.get(d, -1) >= seq for d, seq in start.items()):
            return i
    return 0


def _is_commit_or_rollback(event: bytes, crc: bool) -> bool:
    """Query_log_event::peek_is_commit_rollback: the statement is COMMIT or ROLLBACK."""
    if len(event) < 19 + 13:
        return False
    db_len = event[19 + 8]
    status_len = struct.unpack_from("<H", event, 19 + 11)[0]
    start = 19 + 13 + status_len + db_len + 1
    query = event[start:len(event) - (4 if crc else 0)]
    return query in (b"COMMIT", b"ROLLBACK")


@dataclass
class GroupSkipper:
    """Skip the event groups the replica's @slave_connect_state already holds: a transaction up to
    its XID, XA prepare or COMMIT/ROLLBACK query; a standalone group (FL_STANDALONE) up to and
    including its first event that is not part of a group."""
    state: MariadbState
    mode: str = ""  # "", "transaction" or "standalone"

    def skip(self, event: bytes, crc: bool) -> bool:
        type_code = event[4]
        if not self.mode and type_code == T.GTID_EVENT:
            seq, domain, flags2 = struct.unpack_from("<QIB", event, 19)
            if self.state.contains(domain, seq):
                self.mode = "standalone" if flags2 & FL_STANDALONE else "transaction"
                return True
            return False
        if self.mode == "standalone":
            if type_code not in PART_OF_GROUP:
                self.mode = ""
            return True
        if self.mode == "transaction":
            if type_code in _ENDS_TRANSACTION or (type_code == T.QUERY_EVENT and _is_commit_or_rollback(event, crc)):
                self.mode = ""
            return True
        return False

# the events compatible_event may rewrite (the rest go out as they are, unread)
REWRITTEN_TYPES = frozenset({T.GTID_EVENT, T.ANNOTATE_ROWS_EVENT, *_NEEDS})


@dataclass
class BinlogStateTracker:
    """The fake Gtid_list a GTID start sends (send_one_binlog_file: send_fake_gtid_list): once a
    GTID at or past the replica's position in its domain has been read, and the group it starts
    is over (sent or skipped), the server sends an artificial Gtid_list of its binlog state there
    (the start file's Gtid_list, updated with every GTID read), so the replica learns its position
    even when everything up to it was skipped. Entries: by domain, the latest server last."""
    start: MariadbState
    state: dict[tuple[int, int], int] = field(default_factory=dict)  # (domain, server_id) -> seq_no
    loaded: bool = False        # the start file's Gtid_list has been read
    reached: set[int] = field(default_factory=set)
    pending: bool = False

    def note(self, event: bytes) -> None:
        """Read a Gtid_list (the first one loads the state) or a GTID event."""
        type_code = event[4]
        if type_code == T.GTID_LIST_EVENT and not self.loaded:
            self.loaded = True
            (count,) = struct.unpack_from("<I", event, 19)
            for i in range(count & 0x0FFFFFFF):
                domain, server, seq = struct.unpack_from("<IIQ", event, 19 + 4 + 16 * i)
                self.state[(domain, server)] = seq
        elif type_code == T.GTID_EVENT and len(event) >= 19 + 13:
            seq, domain = struct.unpack_from("<QI", event, 19)
            server = struct.unpack_from("<I", event, 5)[0]
            self.state.pop((domain, server), None)
            self.state[(domain, server)] = seq
            start = self.start.seq_by_domain.get(domain)
            if domain not in self.reached and start is not None and seq >= start:
                self.reached.add(domain)
                self.pending = True

    def gtid_list_body(self) -> bytes:
        entries = sorted(self.state.items(), key=lambda kv: kv[0][0])  # stable: the latest server last
        return struct.pack("<I", len(entries)) + b"".join(
            struct.pack("<IIQ", d, s, seq) for (d, s), seq in entries)


GTID_INDEX_SINCE = (11, 4, 0)   # binlog_gtid_index (on by default): a GTID start looks up the index


def gtid_index_start(path: Path, limit: int = 8) -> tuple[int, bytes | None]:
    """Where an 11.4+ server starts a GTID dump in a file whose GTID index holds only its first
    record (files under binlog_gtid_index_span_min, 64 KiB, past it): right after the file's
    Gtid_list, with that Gtid_list's state. (4, None) when the file has none near its start."""
    with open(path, "rb") as f:
        pos = 4
        f.seek(pos)
        for _ in range(limit):
            header = f.read(19)
            if len(header) < 19:
                break
            size = struct.unpack_from("<I", header, 9)[0]
            if size < 19:
                break
            if header[4] == T.GTID_LIST_EVENT:
                return pos + size, header + f.read(size - 19)
            f.seek(size - 19, 1)
            pos += size
    return 4, None


# -- a GTID start the binlogs cannot serve (sql_repl.cc check_slave_start_position, the error texts
#    of mysql_binlog_send, all sent as ERR 1236 so the replica does not retry) --------------------
_NOT_IN_BINLOG = "Error: connecting slave requested to start from GTID {}, which is not in the master's binlog"
_DIVERGED = (_NOT_IN_BINLOG + ". Since the master's binlog contains GTIDs with higher sequence numbers, it "
             "probably means that the slave has diverged due to executing extra erroneous transactions")
_HOLE = ("The binlog on the master is missing the GTID {} requested by the slave (even though both a prior and "
         "a subsequent sequence number does exist), and GTID strict mode is enabled")


def start_position_error(logs: ServedLogs, state: MariadbState, ignore_duplicates: bool) -> str | None:
    """The refusal of a start from a GTID the binlog state (domain, server_id) does not reach. A
    domain the binlogs never saw is allowed (another primary's); with @slave_gtid_ignore_duplicates
    so is a GTID past the domain's last. The text says 'diverged' when the domain went further."""
    for domain, seq in state.seq_by_domain.items():
        if logs.mariadb_state.get((domain, state.server_by_domain.get(domain, 0)), -1) >= seq:
            continue
        last = logs.mariadb_gtids.get(domain)
        if last is None:
            continue
        last_seq = int(last.rsplit("-", 1)[1])
        if ignore_duplicates and last_seq < seq:
            continue
        return (_DIVERGED if last_seq >= seq else _NOT_IN_BINLOG).format(state.text(domain))
    return None


def strict_hole(event: bytes, state: MariadbState, reached: set[int]) -> str | None:
    """send_event_to_slave in @slave_gtid_strict_mode: the first GTID of the requested domain and
    server past the requested seq_no, before that seq_no was seen, means it is missing."""
    seq, domain = struct.unpack_from("<QI", event, 19)
    server = struct.unpack_from("<I", event, 5)[0]
    if domain in reached or domain not in state.seq_by_domain:
        return None
    if server == state.server_by_domain.get(domain) and seq > state.seq_by_domain[domain]:
        return _HOLE.format(state.text(domain))
    return None
