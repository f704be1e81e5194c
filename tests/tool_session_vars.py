"""A Query event's status variables as the real tool shows them, against the oracle's decoding.

mysqlbinlog and mariadb-binlog print a Query's session state as `SET TIMESTAMP=...`,
`SET @@session.<var>=<value>` lines, but only the values that changed since the last event that
printed them. So the comparison keeps the state the text has set so far, and after each Query
event checks that every variable of that state equals what the oracle decoded for the event (its
status variable, or the server's default when the event does not carry it): a value the tool
printed must agree, and so must one it left unprinted because it had not changed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oracle.model import Event
from oracle.mysqlbinlog_text import TextDump
from oracle.values import plain
from oracle.verify import Disagreement

QUERY_TYPES = frozenset((2, 18, 165))  # Query, Execute_load_query, MariaDB Query_compressed
_SET = re.compile(r"^(?:/\*!\d+ )?SET (.*?)(?:\*/)?/\*!\*/;$")
# A value is quoted, or plain, or (sql_mode of a binlog from a server before 8.0, printed by
# mysqlbinlog 8.0+) a number followed by the mask of the modes 8.0 removed, applied only when
# replayed on 8.0.5+: `1436549152/*!80005 &~0x1003ff00*/`.
_ASSIGNMENT = re.compile(r"(?:@@session\.)?(\w+)=('(?:[^'\\]|\\.)*'|\d+/\*!80005 &~0x[0-9a-f]+(?:\*/)?|[^,\s]+)")
_REMOVED_MODES_MASK = re.compile(r"^(\d+)/\*!80005 &~0x[0-9a-f]+(?:\*/)?$")  # _SET ate the "*/"

# Q_FLAGS2_CODE bits the tools print as session variables (OPTION_* of sql_priv.h / my_global.h),
# and whether a set bit means the variable is 1 (else 0).
_FLAGS2 = {"sql_auto_is_null": (1 << 14, True), "autocommit": (1 << 19, False),
           "foreign_key_checks": (1 << 26, False), "unique_checks": (1 << 27, False),
           "check_constraint_checks": (1 << 30, False)}


def _status(name: str, default: Any = None) -> Callable[[Event], Any]:
    """The status variable's value; `default` when the event does not carry it (None: the tool
    keeps the last value it printed, so an event without it is not compared)."""
    return lambda o: plain(o.body.get("status_vars", {})).get(name, default)


def _flag(bit: int, set_means_on: bool) -> Callable[[Event], Any]:
    def get(o: Event) -> Any:
        flags2 = plain(o.body.get("status_vars", {})).get("Q_FLAGS2_CODE")
        return None if flags2 is None else int(bool(flags2 & bit) == set_means_on)
    return get


def _part(getter: Callable[[Event], Any], key: str) -> Callable[[Event], Any]:
    return lambda o: None if (v := getter(o)) is None else v[key]


def _timestamp(o: Event) -> tuple[int, int | None]:
    """(seconds, microseconds): MySQL's Q_MICROSECONDS, MariaDB's Q_HRNOW."""
    sv = plain(o.body.get("status_vars", {}))
    return o.timestamp, sv.get("Q_MICROSECONDS", sv.get("Q_HRNOW"))


def _printed_timestamp(printed: str) -> tuple[int, int | None]:
    """`seconds[.microseconds]`; the microseconds read as an integer, because MariaDB 10.5's
    mariadb-binlog prints them without zero padding (34026 for .034026)."""
    seconds, _, usec = printed.partition(".")
    return int(seconds), int(usec) if usec else None


# Collation id -> its character set's name, for the ids the corpus servers use: MariaDB prints
# character_set_client by name. An id missing here is reported, not skipped.
CHARSET_OF_COLLATION = {8: "latin1", 33: "utf8mb3", 45: "utf8mb4", 46: "utf8mb4", 63: "binary",
                        83: "utf8mb3", 224: "utf8mb4", 255: "utf8mb4", 2304: "utf8mb4"}


def _character_set_client(o: Event) -> Any:
    charset = _CHARSET(o)
    return None if charset is None else charset["character_set_client"]


def _client_printed(expected: int, printed: str) -> bool:
    return str(expected) == printed or CHARSET_OF_COLLATION.get(expected) == printed


def _collation_database(o: Event) -> str:
    number = _status("Q_CHARSET_DATABASE_CODE", 0)(o)
    return "DEFAULT" if number == 0 else str(number)


def _time_zone(o: Event) -> Any:
    tz = _status("Q_TIME_ZONE_CODE")(o)
    return None if tz is None else f"'{tz}'"


_CHARSET = _status("Q_CHARSET_CODE")
_AUTO_INCREMENT = _status("Q_AUTO_INCREMENT", {"auto_increment_increment": 1, "auto_increment_offset": 1})

# The name the text sets -> the oracle's value for it (None: not compared for this event).
VARIABLES: dict[str, Callable[[Event], Any]] = {
    "TIMESTAMP": _timestamp,
    "pseudo_thread_id": lambda o: o.body["thread_id"],
    **{name: _flag(bit, on) for name, (bit, on) in _FLAGS2.items()},
    "sql_mode": _status("Q_SQL_MODE_CODE"),
    "auto_increment_increment": _part(_AUTO_INCREMENT, "auto_increment_increment"),
    "auto_increment_offset": _part(_AUTO_INCREMENT, "auto_increment_offset"),
    "character_set_client": _character_set_client,
    "collation_connection": _part(_CHARSET, "collation_connection"),
    "collation_server": _part(_CHARSET, "collation_server"),
    "time_zone": _time_zone,
    "lc_time_names": _status("Q_LC_TIME_NAMES_CODE", 0),
    "collation_database": _collation_database,
    "default_collation_for_utf8mb4": _status("Q_DEFAULT_COLLATION_FOR_UTF8MB4"),
    "sql_require_primary_key": _status("Q_SQL_REQUIRE_PRIMARY_KEY"),
    "default_table_encryption": _status("Q_DEFAULT_TABLE_ENCRYPTION"),
    "explicit_defaults_for_timestamp": _status("Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP"),
}


def _same_text(expected: Any, printed: str) -> bool:
    return str(expected) == printed


# How a printed value is matched with the oracle's, where it is not its plain text.
AGREES: dict[str, Callable[[Any, str], bool]] = {
    "TIMESTAMP": lambda expected, printed: expected == _printed_timestamp(printed),
    "character_set_client": _client_printed,
    "sql_mode": lambda expected, printed: str(expected) == (
        m[1] if (m := _REMOVED_MODES_MASK.match(printed)) else printed),
}


def assignments(lines: list[str]) -> dict[str, str]:
    """`name -> printed value` for every SET line of an event's text."""
    out: dict[str, str] = {}
    for line in lines:
        m = _SET.match(line)
        if m is not None:
            out.update((name, value) for name, value in _ASSIGNMENT.findall(m[1]) if name in VARIABLES)
    return out


def session_disagreements(dump: TextDump, events: list[Event]) -> tuple[list[Disagreement], int]:
    """The disagreements, and how many variable values were compared."""
    by_position = {e.position: e for e in events}
    state: dict[str, str] = {}
    out: list[Disagreement] = []
    compared = 0
    for t in dump.events:
        o = None if t.nested else by_position.get(t.position)
        if o is None or o.type_code not in QUERY_TYPES:
            continue
        state.update(assignments(t.lines))
        for name, printed in state.items():
            expected = VARIABLES[name](o)
            if expected is None:
                continue
            compared += 1
            if not AGREES.get(name, _same_text)(expected, printed):
                out.append(Disagreement(o.position, o.type_name, f"session.{name}", str(expected), printed))
    return out, compared
