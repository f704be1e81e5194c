"""Strategies for single events, in the canonical JSON form oracle.encode writes: a header
(timestamp, server id, flags, checksum algorithm) and a body shaped as the oracle decodes it.
Only the fields the encoder reads are built; lengths and counts the bytes carry (db_len,
status_vars_len, column_count, ...) are the encoder's to compute and the decoder's to report."""
from __future__ import annotations

import operator
import string
from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.codecs.types import SIGNEDNESS_TYPES, ColumnType as C
from oracle.event_types import EventType as E, HeaderFlag
from oracle.events.rows import DELETE, KIND, UPDATE
from oracle.values import integer

from .columns import Column, columns
from .profiles import VersionProfile

Strategy = st.SearchStrategy
STMT_END_F = 0x1
POSITION_PLACEHOLDER = 1  # any non-zero next_position: the encoder writes the real one

# -- small building blocks -----------------------------------------------------------------------

timestamps = st.integers(1_000_000_000, 2**31 - 1)
server_ids = st.integers(1, 2**32 - 1)
_FIRST = string.ascii_lowercase + "_"


def names(size: int) -> Strategy:
    """[a-z_][a-z0-9_]*, at most `size` characters: identifiers and GTID tags (st.from_regex
    builds the same, five times slower)."""
    return st.builds(operator.add, st.sampled_from(_FIRST), st.text(_FIRST + string.digits, max_size=size - 1))


identifiers = names(16)
thread_ids = st.integers(0, 2**32 - 1)


def event(type_code: int, body: dict[str, Any], *, timestamp: int, server_id: int, checksum: str,
          flags: int = 0) -> dict[str, Any]:
    return {"type_code": int(type_code), "type": E(type_code).name, "timestamp": timestamp,
            "server_id": server_id, "flags": flags, "next_position": POSITION_PLACEHOLDER,
            "checksum": {"algorithm": checksum}, "body": body}


def format_description(profile: VersionProfile, checksum: str, created: int, in_use: bool) -> dict[str, Any]:
    body = {"binlog_version": 4, "server_version": profile.server_version, "created": created,
            "common_header_len": 19, "post_header_len": list(profile.post_header_len), "checksum_alg": checksum}
    return event(E.FORMAT_DESCRIPTION_EVENT, body, timestamp=created, server_id=0, checksum=checksum,
                 flags=HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F if in_use else 0)


# -- Query and its status variables --------------------------------------------------------------

_FLAGS2_BITS = (0x4000, 0x80000, 0x4000000, 0x8000000)  # AUTO_IS_NULL, NOT_AUTOCOMMIT, NO_FK_CHECKS, RELAXED_UNIQUE
_MARIADB_FLAGS2_BITS = _FLAGS2_BITS + (0x1000000,)  # bit 24: set in every Query of the 10.11+ corpus
_db_names = st.lists(identifiers, min_size=1, max_size=16, unique=True)
START_ALTER, COMMIT_ALTER, ROLLBACK_ALTER = 0x02, 0x04, 0x08  # MariaDB's FL_*_ALTER_E1
# MariaDB 11.2+ @@character_set_collations entries, as 11.8 logs them (charset -> its uca1400 collation).
_CHARSET_COLLATIONS = ((33, 2048), (35, 2560), (45, 2304), (54, 2816), (60, 3072))

# Values of the status variables that do not depend on the profile (status_values adds those that do).
STATUS_VALUES: dict[str, Strategy] = {
    "Q_SQL_MODE_CODE": st.integers(0, 2**32 - 1),
    "Q_CATALOG_NZ_CODE": st.just("std"),
    "Q_AUTO_INCREMENT": st.fixed_dictionaries({"auto_increment_increment": st.integers(1, 65535),
                                               "auto_increment_offset": st.integers(1, 65535)}),
    "Q_TIME_ZONE_CODE": st.sampled_from(["SYSTEM", "+00:00", "-05:30", "+13:00", "Europe/Paris", "UTC"]),
    "Q_LC_TIME_NAMES_CODE": st.integers(0, 110),
    "Q_TABLE_MAP_FOR_UPDATE_CODE": st.integers(0, 2**64 - 1).map(integer),
    "Q_MASTER_DATA_WRITTEN_CODE": st.integers(0, 2**32 - 1),
    "Q_INVOKER": st.fixed_dictionaries({"user": identifiers, "host": st.sampled_from(["localhost", "%", "127.0.0.1"])}),
    "Q_UPDATED_DB_NAMES": st.one_of(
        _db_names.map(lambda names: {"over_max_dbs_in_event_mts": False, "mts_accessed_db_names": names}),
        st.just({"over_max_dbs_in_event_mts": True, "mts_accessed_dbs": 254})),
    "Q_MICROSECONDS": st.integers(0, 999_999),
    "Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP": st.integers(0, 1),
    "Q_DDL_LOGGED_WITH_XID": st.integers(0, 2**53 - 1),
    "Q_DEFAULT_COLLATION_FOR_UTF8MB4": st.sampled_from([45, 46, 255]),
    "Q_SQL_REQUIRE_PRIMARY_KEY": st.integers(0, 1),
    "Q_DEFAULT_TABLE_ENCRYPTION": st.integers(0, 1),
    "Q_HRNOW": st.integers(0, 999_999),
    "Q_XID": st.integers(1, 2**64 - 1).map(integer),
    "Q_GTID_FLAGS3": st.one_of(  # a two-phase ALTER: its START, or the COMMIT/ROLLBACK of a START's seq_no
        st.just({"gtid_flags_extra": START_ALTER}),
        st.fixed_dictionaries({"gtid_flags_extra": st.sampled_from([COMMIT_ALTER, ROLLBACK_ALTER]),
                               "sa_seq_no": st.integers(1, 2**64 - 1).map(integer)})),
    "Q_CHARACTER_SET_COLLATIONS": st.lists(st.sampled_from(_CHARSET_COLLATIONS), min_size=1, unique=True).map(
        lambda pairs: [{"charset": c, "collation": k} for c, k in pairs]),
}


@lru_cache(maxsize=None)
def status_values(profile: VersionProfile) -> dict[str, Strategy]:
    """STATUS_VALUES with the flags and collations of the profile's servers."""
    collation = st.sampled_from(profile.collations)
    bits = _MARIADB_FLAGS2_BITS if profile.flavor == "mariadb" else _FLAGS2_BITS
    return {**STATUS_VALUES, "Q_FLAGS2_CODE": st.sets(st.sampled_from(bits)).map(sum),
            "Q_CHARSET_CODE": st.fixed_dictionaries({"character_set_client": collation,
                                                     "collation_connection": collation,
                                                     "collation_server": collation}),
            "Q_CHARSET_DATABASE_CODE": collation}


@st.composite
def status_vars(draw: Callable, profile: VersionProfile, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A subset of the profile's status variables (or of `names`), in the order its servers write them."""
    names = profile.status_vars if names is None else names
    chosen = draw(st.lists(st.sampled_from(names), unique=True))
    values = status_values(profile)
    return {name: draw(values[name]) for name in names if name in chosen}


@lru_cache(maxsize=None)
def query_body(profile: VersionProfile, names: tuple[str, ...] | None = None) -> Strategy:
    """A Query body without its db and query (the transaction's to choose); its status variables
    drawn from the profile's, or from `names`."""
    return st.fixed_dictionaries({
        "thread_id": thread_ids, "query_exec_time": st.integers(0, 100),
        "error_code": st.just(0), "status_vars": status_vars(profile, names)})


_DDL = ("CREATE TABLE `{db}`.`{t}` (`{c}` INT PRIMARY KEY)", "DROP TABLE IF EXISTS `{db}`.`{t}`",
        "CREATE DATABASE IF NOT EXISTS `{db}`", "ALTER TABLE `{t}` ADD COLUMN `{c}` VARCHAR(20)")
ddl_statements = st.tuples(st.sampled_from(_DDL), identifiers, identifiers).map(
    lambda x: lambda db: x[0].format(db=db, t=x[1], c=x[2]))  # a DDL statement, given its database


def row_statement(db: str) -> str:
    """The statement a Rows_query / Annotate_rows event shows for a statement's rows events."""
    return f"INSERT INTO `{db}`.t VALUES (...)"


# -- Table_map and rows --------------------------------------------------------------------------

# Bytes of Table_map metadata per column type (Field::save_field_metadata).
META_BYTES = {C.FLOAT: 1, C.DOUBLE: 1, C.BLOB: 1, C.GEOMETRY: 1, C.JSON: 1, C.VECTOR: 1, C.TIME2: 1,
              C.DATETIME2: 1, C.TIMESTAMP2: 1, C.NEWDECIMAL: 2, C.BIT: 2, C.VARCHAR: 2, C.STRING: 2}


def table_map_body(table_id: int, schema: str, table: str, cols: list[Column],
                   signedness: bool) -> dict[str, Any]:
    optional = []
    numeric = [c for c in cols if c.kind in SIGNEDNESS_TYPES]
    if signedness and numeric:
        optional.append({"type": 1, "name": "SIGNEDNESS", "value": [c.unsigned for c in numeric]})
    return {"table_id": table_id, "flags": 1, "schema": schema, "table": table,
            "column_types": [int(c.type_code) for c in cols], "column_metadata": [c.meta for c in cols],
            "field_metadata_size": sum(META_BYTES.get(c.type_code, 0) for c in cols),
            "null_bitmap": "".join("1" if c.nullable else "0" for c in cols),
            "optional_metadata": optional}


@lru_cache(maxsize=None)
def table_columns(profile: VersionProfile, kinds: tuple[int, ...]) -> Strategy:
    return st.lists(columns(kinds, profile.signedness_metadata), min_size=1, max_size=8)


@lru_cache(maxsize=None)
def _present(n: int) -> Strategy:
    """A columns bitmap: every column (binlog_row_image=FULL) or a non-empty subset (MINIMAL)."""
    every = st.just("1" * n)
    subset = st.lists(st.booleans(), min_size=n, max_size=n).filter(any).map(
        lambda bits: "".join("1" if b else "0" for b in bits))
    return st.one_of(every, subset)


def _image(cols: list[Column], present: str) -> Strategy:
    return st.tuples(*(c.values() for c, p in zip(cols, present) if p == "1")).map(
        lambda values: {"values": list(values)})


@st.composite
def rows_body(draw: Callable, type_code: int, table_id: int, cols: list[Column], last: bool) -> dict[str, Any]:
    """Any generation: v2 events carry an (empty) extra_data header, v1 ones none."""
    n = len(cols)
    body: dict[str, Any] = {"table_id": table_id, "flags": {"value": STMT_END_F if last else 0},
                            "extra_data": {"length": 2} if type_code in V2_ROWS_EVENTS else None, "width": n}
    count, kind = ROW_COUNTS, KIND[E(type_code)]
    if kind == UPDATE:
        before, after = draw(_present(n)), draw(_present(n))
        body |= {"columns_before_image": before, "columns_after_image": after}
        body["rows"] = [{"before_image": draw(_image(cols, before)), "after_image": draw(_image(cols, after))}
                        for _ in range(draw(count))]
    else:
        present = draw(_present(n))
        body["columns_before_image" if kind == DELETE else "columns_after_image"] = present
        body["rows"] = [draw(_image(cols, present)) for _ in range(draw(count))]
    return body


ROW_COUNTS = st.integers(1, 3)
V2_ROWS_EVENTS = (E.WRITE_ROWS_EVENT, E.UPDATE_ROWS_EVENT, E.DELETE_ROWS_EVENT)
V1_ROWS_EVENTS = (E.WRITE_ROWS_EVENT_V1, E.UPDATE_ROWS_EVENT_V1, E.DELETE_ROWS_EVENT_V1)


def rows_events(profile: VersionProfile) -> tuple[int, ...]:
    """The uncompressed rows events the profile's servers write: v2 (MySQL), v1 (MariaDB)."""
    return tuple(code for code in V2_ROWS_EVENTS + V1_ROWS_EVENTS if code in profile.events)
