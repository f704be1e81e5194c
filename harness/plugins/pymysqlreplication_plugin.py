"""python-mysql-replication (PyPI `mysql-replication`), the most used Python binlog parser.

It normally reads events from a live server: BinLogStreamReader receives one event per network
packet and hands it to BinLogPacketWrapper. We drive that same wrapper over a file's bytes: the
adapter below frames the file (magic, then event_size per event, as the server would send them),
wraps each event in a pymysql packet behind the 0x00 OK byte, and carries the state the stream
reader keeps between events (server version and post-header lengths from the
Format_description, the checksum setting, the table map). A control connection is never needed
when column-name lookups are off; the stub raises if the library tries one anyway.

Only what the library exposes is mapped, and declared as capabilities: headers, a few bodies,
and row values (pymysqlreplication_rows.py) of the column types it can be mapped back from. An
event the library does not decode (NotImplementedEvent) keeps an empty body, except where a
user would expect content and gets none: a rows event of a type it does not know (MariaDB's
compressed rows) reports no rows, a Transaction_payload (binlog_transaction_compression=ON)
no nested events, which is exactly what the library delivers to its user. Framing failures (bad
magic, cut event) are the adapter's clean rejections; MalformedBinLogEvent and
StatusVariableMismatch are the library's; any other exception escaping it is a crash.

This is the file transport, `python-mysql-replication-file`; `python-mysql-replication` is the
library's own BinLogStreamReader reading the case from the harness's primary
(pymysqlreplication_stream.py), mapped by the same code (`canonical_event`, CAPABILITIES).
tests/test_pymysqlreplication_live.py checks the two agree on what a real MySQL 9.7 wrote."""
from __future__ import annotations

import binascii
import struct
from typing import Any, Callable

from .base import BaseParser, Capabilities, ParseError, Unsupported, delivering
from .pymysqlreplication_rows import ROW_VALUE_TYPES, canonical_rows

HEADER_LEN = 19
MAGIC = b"\xfebin"
_HEADER = struct.Struct("<IBIIIH")
FDE, START_V3, TABLE_MAP, CRC32 = 15, 1, 19, 1


def _text(b: bytes | str) -> Any:
    from oracle.values import text
    return text(b.encode("utf-8", "surrogateescape") if isinstance(b, str) else b)


def _uuid(sid: bytes) -> str:
    h = binascii.hexlify(sid).decode()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# library class name -> canonical body (oracle field names) from the event object.
BODIES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "QueryEvent": lambda e: {"thread_id": e.slave_proxy_id, "query_exec_time": e.execution_time,
                             "db_len": e.schema_length, "error_code": e.error_code,
                             "status_vars_len": e.status_vars_length, "db": _text(e.schema),
                             "query": _text(e.query)},
    "RotateEvent": lambda e: {"pos": e.position, "new_log_ident": _text(e.next_binlog)},
    "XidEvent": lambda e: {"xid": e.xid},
    "FormatDescriptionEvent": lambda e: {"binlog_version": e.binlog_version[0],
                                         "server_version": e.mysql_version_str, "created": e.created,
                                         "common_header_len": e.common_header_len},
    "IntvarEvent": lambda e: {"type": e.type, "val": e.value},
    "RandEvent": lambda e: {"seed1": e.seed1, "seed2": e.seed2},
    "GtidEvent": lambda e: {"sid": _uuid(e.sid), "gno": e.gno, "gtid": e.gtid,
                            **({"last_committed": e.last_committed, "sequence_number": e.sequence_number}
                               if hasattr(e, "last_committed") else {})},
    "TableMapEvent": lambda e: {"table_id": e.table_id, "schema": _text(e.schema),
                                "table": _text(e.table), "column_count": e.column_count},
    "MariadbGtidEvent": lambda e: {"seq_no": e.gtid_seq_no, "domain_id": e.domain_id},
    "MariadbAnnotateRowsEvent": lambda e: {"query": _text(e.sql_statement)},
    **{name: lambda e: {"table_id": e.table_id, "rows": canonical_rows(e)}
       for name in ("WriteRowsEvent", "UpdateRowsEvent", "DeleteRowsEvent", "PartialUpdateRowsEvent")},
}
# Every rows type it has a class for, and MySQL 5.1's pre-GA ones, which it has none for (rows lost).
ROWS_TYPES = ("WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "WRITE_ROWS_EVENT_V1",
              "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1", "PARTIAL_UPDATE_ROWS_EVENT",
              "PRE_GA_WRITE_ROWS_EVENT", "PRE_GA_UPDATE_ROWS_EVENT", "PRE_GA_DELETE_ROWS_EVENT")
# Types the library does not decode (NotImplementedEvent), whose content a user silently does not
# get: MariaDB's compressed rows events, v1 and v2, and MySQL's Transaction_payload.
UNDECODED_CONTENT = {"TRANSACTION_PAYLOAD_EVENT": {"events": []},
                     **{f"{kind}_ROWS_COMPRESSED_EVENT{v}": {"rows": []}
                        for kind in ("WRITE", "UPDATE", "DELETE") for v in ("", "_V1")}}

CAPABILITIES = Capabilities(
    frozenset(("position", "event_size", "next_position", "type_code", "type", "server_id", "timestamp",
               "flags.value")),
    {
        "QUERY_EVENT": frozenset(("thread_id", "query_exec_time", "db_len", "error_code",
                                  "status_vars_len", "db", "query")),
        "ROTATE_EVENT": frozenset(("pos", "new_log_ident")),
        "XID_EVENT": frozenset(("xid",)),
        "FORMAT_DESCRIPTION_EVENT": frozenset(("binlog_version", "server_version", "created",
                                               "common_header_len")),
        "INTVAR_EVENT": frozenset(("type", "val")),
        "RAND_EVENT": frozenset(("seed1", "seed2")),
        "GTID_LOG_EVENT": frozenset(("sid", "gno", "gtid", "last_committed", "sequence_number")),
        "TABLE_MAP_EVENT": frozenset(("table_id", "schema", "table", "column_count")),
        "GTID_EVENT": frozenset(("seq_no", "domain_id")),
        "ANNOTATE_ROWS_EVENT": frozenset(("query",)),
        **{t: frozenset(("table_id", "rows")) for t in ROWS_TYPES},
        **{t: frozenset(body) for t, body in UNDECODED_CONTENT.items()},
    },
    every_event=True, partial_events=True, row_values=ROW_VALUE_TYPES)


class _NoServer:
    """Stands in for the control connection: the charset, and the flavor the FDE revealed."""

    charset = "utf8"

    def __init__(self) -> None:
        self.dbms = "mysql"

    def _get_dbms(self) -> str:
        return self.dbms

    def cursor(self) -> Any:
        raise RuntimeError("python-mysql-replication asked for a server connection")


def every_event_class(lib: Any) -> frozenset[Any]:
    """Every event class the library decodes, and NotImplementedEvent: nothing filtered out."""
    classes = set(vars(lib.packet.BinLogPacketWrapper)["_BinLogPacketWrapper__event_map"].values())
    return frozenset(classes | {lib.event.NotImplementedEvent})


class _Stream:
    """The per-file state BinLogStreamReader keeps between events."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self.ctl = _NoServer()
        self.table_map: dict[int, Any] = {}
        self.mysql_version = (0, 0, 0)
        self.use_checksum = False
        self.post_header_lengths = None
        self.allowed = every_event_class(lib)

    def wrap(self, event_bytes: bytes) -> Any:
        from pymysql.protocol import MysqlPacket
        type_code = event_bytes[4]
        packet = MysqlPacket(b"\x00" + event_bytes, "utf8")
        # The FDE is read without the checksum flag: the library then skips its trailing CRC itself.
        use_checksum = self.use_checksum and type_code != FDE
        wrapper = self.lib.packet.BinLogPacketWrapper(
            packet, self.table_map, self.ctl, self.mysql_version, use_checksum, self.allowed,
            None, None, None, None, False, False, False, True, False, False, self.post_header_lengths)
        event = wrapper.event
        if type_code == FDE and event is not None:
            self.mysql_version = event.mysql_version
            self.post_header_lengths = event.post_header_len
            self.use_checksum = event.checksum_algorithm == CRC32
            self.ctl.dbms = "mariadb" if "mariadb" in event.mysql_version_str.lower() else "mysql"
        elif type_code == TABLE_MAP and event is not None:
            self.table_map[event.table_id] = event.get_table()
        return wrapper


def library_type(w: Any) -> str | None:
    """The canonical name of the event as the library names it: its event class, one of the
    codes the library's own event map gives that class (WriteRowsEvent is both v1 and v2).
    None for NotImplementedEvent, the library's "I cannot name this" (an undefined code,
    Anonymous_gtid, Transaction_payload, MariaDB's compressed events)."""
    from oracle.event_types import type_name
    import pymysqlreplication.event as lib_event
    cls = type(w.event)
    if w.event is None or cls is lib_event.NotImplementedEvent:
        return None
    event_map = vars(type(w))["_BinLogPacketWrapper__event_map"]
    return type_name(w.event_type) if event_map.get(w.event_type) is cls else None


def canonical_event(position: int, w: Any) -> dict[str, Any]:
    """One event as the library gives it (`w`: its BinLogPacketWrapper, also `event.packet`).
    `type` is the library's naming (library_type), never the header byte on its own."""
    from oracle.event_types import type_name
    body_of = BODIES.get(type(w.event).__name__) if w.event is not None else None
    return {"position": position, "event_size": w.event_size, "next_position": w.log_pos,
            "type_code": w.event_type, "type": library_type(w), "library_type": type(w.event).__name__,
            "server_id": w.server_id, "timestamp": w.timestamp, "flags": {"value": w.flags},
            "body": body_of(w.event) if body_of else dict(UNDECODED_CONTENT.get(type_name(w.event_type), {}))}


class LibraryParser(BaseParser):
    """What both transports share: the installed library's version, and how to provide it."""

    capabilities = CAPABILITIES

    def __init__(self) -> None:
        try:
            from importlib.metadata import version
            self.version = version("mysql-replication")
        except Exception:
            self.version = "not installed"

    def unavailable_reason(self) -> str | None:
        try:
            import pymysqlreplication.packet  # noqa: F401
        except Exception as e:
            return (f"python-mysql-replication is not installed ({e}); provide it with: "
                    "pip install mysql-replication")
        return None


class PyMysqlReplicationFileParser(LibraryParser):
    name = "python-mysql-replication-file"

    def parse(self, path: str) -> list[dict[str, Any]]:
        import pymysqlreplication.event
        import pymysqlreplication.packet
        from pymysqlreplication.exceptions import MalformedBinLogEvent, StatusVariableMismatch
        data = open(path, "rb").read()
        if data[:4] != MAGIC:
            raise ParseError("BadMagic", "not a binlog file", 0)
        if len(data) > 8 and data[8] == START_V3:
            raise Unsupported("binlog v1/v3 (Start_v3, before MySQL 5.0): no live server sends it")
        stream = _Stream(pymysqlreplication)
        events: list[dict[str, Any]] = delivering([])
        pos = 4
        while pos < len(data):
            left = len(data) - pos
            if left < HEADER_LEN:
                raise ParseError("TruncatedEvent", f"header needs 19 bytes, {left} left", pos, events)
            size = _HEADER.unpack_from(data, pos)[3]
            if size < HEADER_LEN or size > left:
                raise ParseError("TruncatedEvent", f"event_size {size} with {left} bytes left", pos, events)
            try:
                wrapper = stream.wrap(data[pos:pos + size])
            except (MalformedBinLogEvent, StatusVariableMismatch) as e:
                raise ParseError(type(e).__name__, str(e), pos, events) from e
            events.append(canonical_event(pos, wrapper))
            pos += size
        return events
