"""python-mysql-replication through its real interface: BinLogStreamReader connected to the
harness's primary (`harness serve`), as a CDC user runs it (issue 13).

The reader is configured as documented for reading a range of a binlog and stopping:
`log_file`/`log_pos` from the StreamSource, `end_log_pos` its end, `blocking=False` (the
primary then ends the dump with EOF after the last served event, a second stop), and
`only_events` every class it decodes and `filter_non_implemented_events=False`, as the file
adapter: by default the reader drops Intvar events, and the events it does not decode would
vanish instead of reaching the user as NotImplementedEvent (header only). What is compared is
then the library's decoding, not its filters. `annotate_rows_event=True` is passed too; the
library sends its flag (BINLOG_SEND_ANNOTATE_ROWS_EVENT) only with `is_mariadb=True`, as its
documentation pairs them, and its MariaDB dump names no file: from `auto_position`, or without it
from the server's first binlog (tests/test_findings_pymysqlreplication_alone.py, 11a). So on a
MariaDB server, a stream is read as a MariaDB user reads it (`is_mariadb=True`: the
Annotate_rows come): from the first binlog without `auto_position`, from a later file with the
GTID position SELECT BINLOG_GTID_POS gives for its start; where that is empty (no GTIDs), or on
MariaDB 11.4+ (whose GTID start skips a file's first events), it stays a file/position dump,
without them (finding 11a, a limit). Events are mapped by the file adapter's code
(`canonical_event`, CAPABILITIES), so both transports report the same things the same way.

Stream modes (harness/stream_modes.py): all four, as the reader's documented arguments give
them (`_reader`): gtid with `auto_position` (on MySQL an empty set is no GTID start to the
library: skipped, saying so), current without `log_file` (its MySQL path asks SHOW BINARY LOG
STATUS, then SHOW MASTER STATUS), heartbeats with `slave_heartbeat`, each HeartbeatLogEvent
reported.

Left out, because they are not in the file but made by the sender: the artificial Rotate a
dump starts with (LOG_EVENT_ARTIFICIAL_F, log_pos 0), the Format_description resent with
log_pos 0 when a dump starts inside a file, and heartbeats outside heartbeats mode. An event's position is
log_pos - event_size; MariaDB 11 writes log_pos 0 inside transactions, so there the position
is taken to be where the previous event ended, and marked undetermined (the server leaves out
the Annotate_rows this reader cannot ask for).

Errors: MalformedBinLogEvent and StatusVariableMismatch are the library's clean rejections;
an ERR packet from the primary (ERR 1236 at the bad bytes of a broken file) reaches the user as
pymysql's OperationalError, reported as a clean `ReplicationError` with the events before it;
a packet out of sequence is pymysql's InternalError ("Packet sequence number wrong"), its typed
rejection of a broken stream, reported as a clean `PacketSequenceError` (harness/wire_faults);
any other exception is a crash of the library."""
from __future__ import annotations

import random
import re
from typing import Any

from oracle.event_types import HeaderFlag

from .protocol import CURRENT, GTID, HEARTBEATS, POSITION, STREAM, StreamSource
from .base import ParseError, Unsupported, delivering
from .pymysqlreplication_plugin import LibraryParser, canonical_event, every_event_class

ROTATE_EVENT, FORMAT_DESCRIPTION_EVENT = 4, 15
HEARTBEATS_CODES = (27, 41)  # HEARTBEAT_LOG_EVENT, HEARTBEAT_LOG_EVENT_V2
# log_pos 0: the Rotate a dump starts with, the Format_description resent when it starts mid-file
RESENT = (ROTATE_EVENT, FORMAT_DESCRIPTION_EVENT)
LOG_EVENT_ARTIFICIAL_F = HeaderFlag.LOG_EVENT_ARTIFICIAL_F
CONNECT_TIMEOUT = 10
# MariaDB 11.4+ looks a GTID start up in its GTID index and sends the file from after its
# Gtid_list (harness/primary/mariadb.py gtid_index_start): a range that starts at a file's first
# event cannot be asked for by GTID there.
GTID_INDEX_SINCE = (11, 4, 0)


def _reader(source: StreamSource) -> Any:
    """The reader as the mode asks (docs of BinLogStreamReader's arguments): position: log_file
    and log_pos; gtid: auto_position (MySQL: COM_BINLOG_DUMP_GTID; with is_mariadb:
    @slave_connect_state); current: neither (the library asks SHOW BINARY LOG STATUS, then
    SHOW MASTER STATUS on a parse error); heartbeats: slave_heartbeat (seconds)."""
    import pymysqlreplication
    from pymysqlreplication import BinLogStreamReader
    settings = {"host": source.host, "port": source.port, "user": source.user,
                "passwd": source.password, "connect_timeout": CONNECT_TIMEOUT}
    log_file: str | None = source.file
    log_pos: int | None = source.start_position
    if source.mode == GTID:
        is_mariadb, gtid = _is_mariadb(settings), source.gtid_set
        if not gtid and not is_mariadb:
            raise Unsupported("an empty GTID set (a start at the server's first transaction): on MySQL the "
                              "library takes a falsy auto_position as no GTID start (it asks SHOW BINARY LOG "
                              "STATUS and dumps from the binlog's end)")
        log_file = log_pos = None
    elif source.mode == CURRENT:
        # the library finds the current position only on its MySQL path (with is_mariadb and no
        # auto_position it dumps from the server's first binlog instead)
        is_mariadb, gtid, log_file, log_pos = False, None, None, None
    else:
        is_mariadb, gtid = _mariadb_start(settings, source)
    heartbeat = source.heartbeat_period if source.mode == HEARTBEATS else None
    # end_log_pos is a position in whatever file the stream is in (the library stops at the first
    # log_pos past it): given only when the stream ends in the file it starts in; parse_stream
    # stops at the end in its file either way
    end_log_pos = source.end_position if (source.end_file or source.file) == source.file else 0
    return BinLogStreamReader(
        connection_settings=settings, server_id=random.randint(0x10000, 0x7FFFFFFF),
        log_file=log_file, log_pos=log_pos, resume_stream=True,
        end_log_pos=end_log_pos or None, blocking=False,
        only_events=list(every_event_class(pymysqlreplication)), filter_non_implemented_events=False,
        annotate_rows_event=True, is_mariadb=is_mariadb, auto_position=gtid, slave_heartbeat=heartbeat)


def _is_mariadb(settings: dict[str, Any]) -> bool:
    import pymysql
    conn = pymysql.connect(**settings)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT VERSION()")
            return "mariadb" in str(cur.fetchone()[0]).lower()
    finally:
        conn.close()


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text.split("-")[0])[:3])


def _mariadb_start(settings: dict[str, Any], source: StreamSource) -> tuple[bool, str | None]:
    """How a MariaDB user starts the library's MariaDB dump (which names no file) where the
    stream starts, as the user finds out: SELECT VERSION(), SHOW BINARY LOGS. At the start of the
    server's first binlog: no auto_position (the dump reads from there). Elsewhere: the GTID
    position of that place, from SELECT BINLOG_GTID_POS(file, pos) (MariaDB's documented way from
    a file/position to a GTID start). (False, None): a MySQL server, or no GTID to start from,
    where the file/position dump stays (without Annotate_rows: finding 11a)."""
    import pymysql
    conn = pymysql.connect(**settings)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT VERSION()")
            version = str(cur.fetchone()[0])
            if "mariadb" not in version.lower():
                return False, None
            cur.execute("SHOW BINARY LOGS")
            first = cur.fetchone()
            if first is not None and first[0] == source.file and source.start_position <= 4:
                return True, None
            if _version(version) >= GTID_INDEX_SINCE:
                return False, None  # its GTID start skips the file's first events: no GTID gives the range
            cur.execute("SELECT BINLOG_GTID_POS(%s, %s)", (source.file, source.start_position))
            gtid = cur.fetchone()[0]
    finally:
        conn.close()
    return (True, gtid) if gtid else (False, None)


def _from_file(w: Any) -> bool:
    """Events of the served file, not the ones the sender made up, nor heartbeats."""
    artificial = w.flags & LOG_EVENT_ARTIFICIAL_F or (w.event_type in RESENT and w.log_pos == 0)
    return not artificial and w.event_type not in HEARTBEATS_CODES


def _heartbeat(w: Any) -> dict[str, Any]:
    """A heartbeat as the library gives it: HeartbeatLogEvent's `ident` (the binlog it names) and
    the header's log_pos; a v2 (which the library never asks for) is its NotImplementedEvent."""
    event = canonical_event(0, w)
    del event["position"]
    ident = getattr(w.event, "ident", None)
    event["body"] = {"log_ident": ident} if ident is not None else {}
    event["library_type"] = type(w.event).__name__
    return event


class PyMysqlReplicationStreamParser(LibraryParser):
    name = "python-mysql-replication"
    transport = STREAM
    modes = (POSITION, GTID, CURRENT, HEARTBEATS)

    def parse(self, path: str) -> list[dict[str, Any]]:
        raise Unsupported("python-mysql-replication reads from a primary; for files: "
                          "python-mysql-replication-file")

    def parse_stream(self, source: StreamSource) -> list[dict[str, Any]]:
        from pymysql.err import InternalError, OperationalError
        from pymysqlreplication.exceptions import MalformedBinLogEvent, StatusVariableMismatch
        reader = _reader(source)
        events: list[dict[str, Any]] = delivering([])
        file, end = source.file, source.start_position  # where the last reported event ended
        try:
            for event in reader:
                w = event.packet
                if source.mode == HEARTBEATS and w.event_type in HEARTBEATS_CODES:
                    events.append(_heartbeat(w))
                    continue
                if not _from_file(w):
                    continue
                position = w.log_pos - w.event_size if w.log_pos else end
                event_json = canonical_event(position, w)
                if not w.log_pos:  # derived, right only if the server sent every event before it
                    event_json["_undetermined"] = ["position"]
                events.append(event_json)
                end = position + w.event_size
                if source.end_position and file == source.end_file and end >= source.end_position:
                    break
                if w.event_type == ROTATE_EVENT:
                    file = event.next_binlog
        except (MalformedBinLogEvent, StatusVariableMismatch) as e:
            raise ParseError(type(e).__name__, str(e), _offset(events), events) from e
        except OperationalError as e:
            raise ParseError("ReplicationError", str(e), _offset(events), events) from e
        except InternalError as e:
            raise ParseError("PacketSequenceError", str(e), _offset(events), events) from e
        finally:
            reader.close()
        return events


def _offset(events: list[dict[str, Any]]) -> int | None:
    return events[-1]["next_position"] if events else None
