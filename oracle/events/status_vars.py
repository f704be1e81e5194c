"""The status-variable block of Query events (and of Execute_load_query, which shares it).

Each variable is a 1-byte code followed by a value whose layout depends on the code. The servers
stop reading at the first code they do not know ("you must write status vars in growing order"),
which silently hides corruption; the oracle instead reports an unknown code as UnknownStatusVar.
MySQL and MariaDB agree on codes 0..11 and then diverge: MySQL continues at 12, MariaDB starts its
own at 128. So the table is chosen by the server flavor of the Format_description in force.

Sources: mysql-server libs/mysql/binlog/event/statement_events.{h,cpp} (codes 0..21; Q_COMMIT_TS
as libbinlogevents 5.7-dev read it), MariaDB sql/log_event.{h,cc} (128..131, Q_DUMMY 255).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..errors import BadEventBody, UnknownStatusVar
from ..reader import Reader
from ..values import binary, integer, text

# Q_UPDATED_DB_NAMES: more than MAX_DBS_IN_EVENT_MTS databases are logged as this count alone.
MAX_DBS_IN_EVENT_MTS = 16
OVER_MAX_DBS_IN_EVENT_MTS = 254
# MariaDB Gtid_log_event::FL_COMMIT_ALTER_E1 | FL_ROLLBACK_ALTER_E1: Q_GTID_FLAGS3 then carries
# the sequence number of the START ALTER it completes.
_ALTER_COMPLETION_FLAGS = 0x04 | 0x08


@dataclass(frozen=True, slots=True)
class StatusVar:
    name: str  # the Q_* constant, as both servers' sources name it
    read: Callable[[Reader], Any]  # reads the value from the status block, after the code byte


# -- value readers (each reads from the status-block reader, so it cannot run past the block) --

def _u8(r: Reader) -> int:
    return r.u8()


def _u16(r: Reader) -> int:
    return r.u16()


def _u24(r: Reader) -> int:
    return r.uint(3)


def _u32(r: Reader) -> int:
    return r.u32()


def _u64(r: Reader) -> int | dict[str, str]:
    return integer(r.u64())


def _short_string(r: Reader) -> Any:
    return text(r.u8_bytes())


def _catalog_with_nul(r: Reader) -> Any:
    """Q_CATALOG_CODE (MySQL 5.0.0-5.0.3): a length-prefixed string followed by a NUL."""
    value = r.u8_bytes("catalog")
    at = r.offset
    if r.u8("catalog terminator") != 0:
        raise BadEventBody(at, "Q_CATALOG_CODE catalog is not NUL-terminated")
    return text(value)


def _auto_increment(r: Reader) -> dict[str, int]:
    return {"auto_increment_increment": r.u16(), "auto_increment_offset": r.u16()}


def _charset(r: Reader) -> dict[str, int]:
    return {"character_set_client": r.u16(), "collation_connection": r.u16(),
            "collation_server": r.u16()}


def _invoker(r: Reader) -> dict[str, Any]:
    return {"user": text(r.u8_bytes("user")), "host": text(r.u8_bytes("host"))}


def _updated_db_names(r: Reader) -> dict[str, Any]:
    """A count, then that many NUL-terminated names; a count above MAX_DBS_IN_EVENT_MTS (the
    server writes 254) means "too many to list" and no names follow. A count of 0 is invalid."""
    at = r.offset
    count = r.u8("mts_accessed_dbs")
    if count > MAX_DBS_IN_EVENT_MTS:
        return {"mts_accessed_dbs": count, "over_max_dbs_in_event_mts": True,
                "mts_accessed_db_names": []}
    if count == 0:
        raise BadEventBody(at, "Q_UPDATED_DB_NAMES lists 0 databases")
    names = [text(r.cstring("database name")) for _ in range(count)]
    return {"mts_accessed_dbs": count, "over_max_dbs_in_event_mts": False,
            "mts_accessed_db_names": names}


def _rest_of_block(r: Reader) -> dict[str, str]:
    """Codes the servers define but never gave a readable layout (Q_COMMIT_TS2) or that mark the
    rest as padding (MariaDB Q_DUMMY): their reader stops there, so the remaining bytes are kept."""
    return binary(r.rest())


def _gtid_flags3(r: Reader) -> dict[str, Any]:
    flags = r.u8("gtid_flags_extra")
    value: dict[str, Any] = {"gtid_flags_extra": flags}
    if flags & _ALTER_COMPLETION_FLAGS:
        value["sa_seq_no"] = integer(r.u64("sa_seq_no"))
    return value


def _character_set_collations(r: Reader) -> list[dict[str, int]]:
    """MariaDB 11.2+ @@character_set_collations: a count, then (charset id, collation id) u16
    pairs, in the order written."""
    count = r.u8("character_set_collations count")
    pairs = r.sub(4 * count, "character_set_collations")
    return [{"charset": pairs.u16(), "collation": pairs.u16()} for _ in range(count)]


def _table(entries: dict[int, tuple[str, Callable[[Reader], Any]]]) -> dict[int, StatusVar]:
    return {code: StatusVar(name, read) for code, (name, read) in entries.items()}


_SHARED = {  # 0..11: identical in MySQL and MariaDB
    0: ("Q_FLAGS2_CODE", _u32),
    1: ("Q_SQL_MODE_CODE", _u64),
    2: ("Q_CATALOG_CODE", _catalog_with_nul),
    3: ("Q_AUTO_INCREMENT", _auto_increment),
    4: ("Q_CHARSET_CODE", _charset),
    5: ("Q_TIME_ZONE_CODE", _short_string),
    6: ("Q_CATALOG_NZ_CODE", _short_string),
    7: ("Q_LC_TIME_NAMES_CODE", _u16),
    8: ("Q_CHARSET_DATABASE_CODE", _u16),
    9: ("Q_TABLE_MAP_FOR_UPDATE_CODE", _u64),
    10: ("Q_MASTER_DATA_WRITTEN_CODE", _u32),
    11: ("Q_INVOKER", _invoker),
}

MYSQL: dict[int, StatusVar] = _table({
    **_SHARED,
    12: ("Q_UPDATED_DB_NAMES", _updated_db_names),
    13: ("Q_MICROSECONDS", _u24),
    14: ("Q_COMMIT_TS", _u64),
    15: ("Q_COMMIT_TS2", _rest_of_block),
    16: ("Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP", _u8),
    17: ("Q_DDL_LOGGED_WITH_XID", _u64),
    18: ("Q_DEFAULT_COLLATION_FOR_UTF8MB4", _u16),
    19: ("Q_SQL_REQUIRE_PRIMARY_KEY", _u8),
    20: ("Q_DEFAULT_TABLE_ENCRYPTION", _u8),
    21: ("Q_ENABLE_CASCADE_TRIGGERS", _u8),
})

MARIADB: dict[int, StatusVar] = _table({
    **_SHARED,
    128: ("Q_HRNOW", _u24),
    129: ("Q_XID", _u64),
    130: ("Q_GTID_FLAGS3", _gtid_flags3),
    131: ("Q_CHARACTER_SET_COLLATIONS", _character_set_collations),
    255: ("Q_DUMMY", _rest_of_block),
})

TABLES = {"mysql": MYSQL, "mariadb": MARIADB}
# Per flavor, the codes at which the servers stop reading the block (the rest is kept as bytes).
STOP_CODES = {flavor: frozenset(c for c, var in table.items() if var.read is _rest_of_block)
              for flavor, table in TABLES.items()}


def read_status_vars(r: Reader, flavor: str) -> dict[str, Any]:
    """Decode a whole status block (r covers exactly status_vars_len bytes) into {name: value}.
    A code that appears twice keeps its last value, as the servers do."""
    table = TABLES[flavor]
    out: dict[str, Any] = {}
    while r.remaining():
        at = r.offset
        code = r.u8("status variable code")
        var = table.get(code)
        if var is None:
            raise UnknownStatusVar(at, f"status variable code {code} is not defined by {flavor}")
        out[var.name] = var.read(r)
    return out
