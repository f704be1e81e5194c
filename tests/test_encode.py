"""Unit tests of oracle.encode, family by family: canonical bodies written by the encoder must
decode (with the oracle) to the same values, encode again to the same bytes, and bad values
must be refused with EncodeError. Real-file byte identity is tests/test_roundtrip.py."""
from __future__ import annotations

import math
import random
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import json

from oracle.codecs.decimal import decode_decimal
from oracle.codecs.jsonb import canonical_at, decode_jsonb, to_json_text
from oracle.codecs.types import ColumnType as CT
from oracle.codecs.temporal import datetime2_reader, time2_reader, timestamp2_reader
from oracle.decoder import decode_bytes
from oracle.encode import EncodeError, Options, encode_binlog
from oracle.encode.compression import mariadb_compress
from oracle.encode.jsonb import document_bytes, json_diff_bytes
from oracle.encode.events import ENCODERS
from oracle.encode.events.mysql_serialization import varlen_signed, varlen_unsigned
from oracle.encode.values import encode_decimal
from oracle.encode.writer import Writer, packed_int_bytes
from oracle.errors import BinlogError
from oracle.event_types import EventType as T
from oracle.events import DECODERS, ROWS_TYPES
from oracle.events import mysql_serialization as ser
from oracle.reader import Reader

from . import classic_binlog as cb
from .external import manifest

ROWS_FAMILY = frozenset(ROWS_TYPES) | {T.TABLE_MAP_EVENT, T.TRANSACTION_PAYLOAD_EVENT}


# -- helpers ---------------------------------------------------------------------------------------

def fde(version: str) -> dict[str, Any]:
    """The canonical Format_description of a v4 log with every server's post-header lengths."""
    return next(decode_bytes(cb.binlog(version))).to_json()


def ev(type_code: int, body: dict[str, Any], *, flags: int = 0, server_id: int = 1) -> dict[str, Any]:
    return {"position": 0, "event_size": 0, "next_position": 1, "type_code": type_code,
            "server_id": server_id, "timestamp": 1_700_000_000, "flags": {"value": flags},
            "checksum": {"algorithm": "CRC32", "stored": None, "verified": None}, "body": body}


def round_trip(version: str, *events: dict[str, Any]) -> list[dict[str, Any]]:
    """Encode FDE + events, decode, and check that re-encoding the decode gives the same bytes.
    Returns the decoded events after the FDE."""
    data = encode_binlog([fde(version), *events], options=Options(positions="recompute"))
    decoded = [e.to_json() for e in decode_bytes(data)]
    assert encode_binlog(decoded) == data
    for e in decoded:  # positions were recomputed: each event ends where the next begins
        assert e["next_position"] == e["position"] + e["event_size"]
    return decoded[1:]


def assert_subset(given: dict[str, Any], got: dict[str, Any]) -> None:
    for k, v in given.items():
        assert got[k] == v, (k, got[k], v)


MYSQL, MARIADB = cb.MYSQL_VERSION, cb.MARIADB_VERSION


# -- writer and shared codecs --------------------------------------------------------------------

@pytest.mark.parametrize("v", [0, 250, 251, 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000, 2**64 - 1])
def test_packed_int_is_shortest_and_reads_back(v: int) -> None:
    b = packed_int_bytes(v)
    r = Reader(b)
    assert r.packed_int() == v and r.remaining() == 0
    assert len(b) == (1 if v < 251 else 3 if v < 2**16 else 4 if v < 2**24 else 9)


@pytest.mark.parametrize("call", [
    lambda: packed_int_bytes(-1), lambda: packed_int_bytes(2**64),
    lambda: Writer().u8(256), lambda: Writer().u16(-1), lambda: Writer().sint(1, 128 + 256),
    lambda: Writer().u32("x"), lambda: Writer().u32({"type": "bytes", "value": "00"}),
])
def test_writer_refuses_values_that_do_not_fit(call) -> None:
    with pytest.raises(EncodeError):
        call()


def test_writer_takes_tagged_integers_and_both_readings_of_signed() -> None:
    assert Writer().u64({"type": "int", "value": str(2**64 - 1)}).bytes() == b"\xff" * 8
    assert Writer().sint(1, -1).bytes() == Writer().sint(1, 255).bytes() == b"\xff"


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_decimal_encoding_is_the_inverse_of_decoding(data) -> None:
    precision = data.draw(st.integers(1, 65))
    scale = data.draw(st.integers(0, min(precision, 30)))
    whole = data.draw(st.text("0123456789", max_size=precision - scale)).lstrip("0") or "0"
    frac = data.draw(st.text("0123456789", min_size=scale, max_size=scale))
    text = ("-" if data.draw(st.booleans()) else "") + whole + ("." + frac if scale else "")
    assert decode_decimal(encode_decimal(text, precision, scale), precision, scale) == text


@pytest.mark.parametrize("text,p,s", [("123", 2, 0), ("1.234", 5, 2), ("1x", 5, 0), ("1", 66, 0)])
def test_decimal_refuses_values_outside_the_type(text: str, p: int, s: int) -> None:
    with pytest.raises(EncodeError):
        encode_decimal(text, p, s)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(-(2**63), 2**63 - 1))
def test_serialization_varlen_round_trips(u: int, s: int) -> None:
    r = Reader(varlen_unsigned(u) + varlen_signed(s))
    assert ser.varlen_unsigned(r, "u") == u
    assert ser.varlen_signed(r, "s") == s
    assert r.remaining() == 0


# -- temporal row values ---------------------------------------------------------------------------

def _frac(draw, fsp: int) -> str:
    if not fsp:
        return ""
    digits = draw(st.text("0123456789", min_size=fsp, max_size=fsp))
    # One or two fraction bytes hold hundredths or ten-thousandths: an odd fsp ends in 0.
    if fsp % 2:
        digits = digits[:-1] + "0" if fsp < 6 else digits
    return "." + digits


class _Col:
    def __init__(self, meta: int) -> None:
        self.meta, self.index = meta, 0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_temporal2_writers_are_the_inverse_of_the_readers(data) -> None:
    from oracle.encode.row_values import FACTORIES
    draw = data.draw
    fsp = draw(st.integers(0, 6))
    frac = _frac(draw, fsp)
    h, m, s = draw(st.integers(0, 838)), draw(st.integers(0, 59)), draw(st.integers(0, 59))
    time = f"{h:02d}:{m:02d}:{s:02d}{frac}"
    if draw(st.booleans()) and time.strip("0:.") != "":
        time = "-" + time
    datetime = (f"{draw(st.integers(0, 9999)):04d}-{draw(st.integers(0, 12)):02d}-"
                f"{draw(st.integers(0, 31)):02d} {h % 24:02d}:{m:02d}:{s:02d}{frac}")
    stamp = f"{draw(st.integers(0, 2**32 - 1))}{frac}"
    for code, reader, tag, text in ((CT.TIME2, time2_reader, "time", time),
                                    (CT.DATETIME2, datetime2_reader, "datetime", datetime),
                                    (CT.TIMESTAMP2, timestamp2_reader, "timestamp", stamp)):
        w = Writer()
        FACTORIES[code](_Col(fsp))(w, {"type": tag, "value": text})
        b = w.bytes()
        value, end = reader(fsp)(b, 0, len(b))
        assert (value, end) == ({"type": tag, "value": text}, len(b))


# -- event families --------------------------------------------------------------------------------

def test_every_decoded_type_has_an_encoder() -> None:
    assert set(DECODERS) == set(ENCODERS)


def _query(status: dict[str, Any], query: str = "SELECT 1", db: str = "test") -> dict[str, Any]:
    return {"thread_id": 7, "query_exec_time": 3, "error_code": 0, "status_vars": status,
            "db": db, "query": query}


MYSQL_STATUS = {
    "Q_FLAGS2_CODE": 0x4000, "Q_SQL_MODE_CODE": {"type": "int", "value": str(2**63 + 5)},
    "Q_CATALOG_NZ_CODE": "std", "Q_AUTO_INCREMENT": {"auto_increment_increment": 2, "auto_increment_offset": 1},
    "Q_CHARSET_CODE": {"character_set_client": 33, "collation_connection": 33, "collation_server": 8},
    "Q_TIME_ZONE_CODE": "+01:00", "Q_LC_TIME_NAMES_CODE": 1, "Q_CHARSET_DATABASE_CODE": 45,
    "Q_TABLE_MAP_FOR_UPDATE_CODE": 3, "Q_INVOKER": {"user": "root", "host": "localhost"},
    "Q_UPDATED_DB_NAMES": {"mts_accessed_dbs": 2, "over_max_dbs_in_event_mts": False,
                           "mts_accessed_db_names": ["a", "b"]},
    "Q_MICROSECONDS": 123456, "Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP": 1, "Q_DDL_LOGGED_WITH_XID": 99,
    "Q_DEFAULT_COLLATION_FOR_UTF8MB4": 255, "Q_SQL_REQUIRE_PRIMARY_KEY": 0,
    "Q_DEFAULT_TABLE_ENCRYPTION": 0,
}
MARIADB_STATUS = {
    "Q_FLAGS2_CODE": 0, "Q_HRNOW": 5, "Q_XID": 77,
    "Q_GTID_FLAGS3": {"gtid_flags_extra": 4, "sa_seq_no": 12},
    "Q_CHARACTER_SET_COLLATIONS": [{"charset": 33, "collation": 192}],
    "Q_CATALOG_CODE": "def",
}


@pytest.mark.parametrize("version,status", [(MYSQL, MYSQL_STATUS), (MARIADB, MARIADB_STATUS),
                                            (MYSQL, {"Q_UPDATED_DB_NAMES": {
                                                "mts_accessed_dbs": 254, "over_max_dbs_in_event_mts": True,
                                                "mts_accessed_db_names": []}})])
def test_query_status_vars_round_trip_in_order(version: str, status: dict[str, Any]) -> None:
    (got,) = round_trip(version, ev(T.QUERY_EVENT, _query(status, "INSERT INTO t VALUES ('\xe9')")))
    assert list(got["body"]["status_vars"].items()) == list(status.items())
    assert got["body"]["db_len"] == 4 and got["body"]["status_vars_len"] > 0


def test_query_refuses_a_status_var_of_the_other_flavor() -> None:
    with pytest.raises(EncodeError):
        encode_binlog([fde(MYSQL), ev(T.QUERY_EVENT, _query({"Q_HRNOW": 1}))])


def test_compressed_query_round_trips() -> None:
    (got,) = round_trip(MARIADB, ev(T.QUERY_COMPRESSED_EVENT, _query({}, "INSERT " + "x" * 300)))
    assert got["body"]["query"] == "INSERT " + "x" * 300
    assert mariadb_compress(b"")[:2] == b"\x81\x00"


USER_VARS = [
    {"name": "s", "is_null": False, "type": "STRING", "charset": 33, "flags": 0, "value": "h\xe9"},
    {"name": "b", "is_null": False, "type": "STRING", "charset": 63, "flags": None,
     "value": {"type": "bytes", "value": "ff00"}},
    {"name": "r", "is_null": False, "type": "REAL", "charset": 33, "flags": 0, "value": -2.5e-300},
    {"name": "n", "is_null": False, "type": "REAL", "charset": 33, "flags": 0,
     "value": {"type": "double", "value": "-inf"}},
    {"name": "i", "is_null": False, "type": "INT", "charset": 33, "flags": 1,
     "value": {"type": "int", "value": str(2**64 - 1)}},
    {"name": "j", "is_null": False, "type": "INT", "charset": 33, "flags": 0, "value": -5},
    {"name": "d", "is_null": False, "type": "DECIMAL", "charset": 33, "flags": 0,
     "value": {"type": "decimal", "value": "-12.50"}, "decimal_precision": 10, "decimal_scale": 2},
    {"name": "z", "is_null": True, "type": "STRING", "charset": 63, "flags": None, "value": None},
]


def test_session_var_events_round_trip() -> None:
    events = [ev(T.USER_VAR_EVENT, b) for b in USER_VARS]
    events += [ev(T.INTVAR_EVENT, {"type": 2, "val": 10}), ev(T.RAND_EVENT, {"seed1": 1, "seed2": 2**63})]
    got = round_trip(MYSQL, *events)
    for given, e in zip(USER_VARS, got):
        assert_subset(given, e["body"])
    assert got[-2]["body"]["type_name"] == "INSERT_ID"
    assert got[-1]["body"]["seed2"] == {"type": "int", "value": str(2**63)}


def test_small_events_round_trip() -> None:
    bodies = [
        (T.STOP_EVENT, {}), (T.XID_EVENT, {"xid": 12}),
        (T.ROTATE_EVENT, {"pos": 4, "new_log_ident": "binlog.000002"}),
        (T.INCIDENT_EVENT, {"incident": 1, "message": "lost", "trailing": {"type": "bytes", "value": "01020304"}}),
        (T.ROWS_QUERY_LOG_EVENT, {"length": 255, "rows_query": "x" * 300}),
        (T.IGNORABLE_LOG_EVENT, {"data": {"type": "bytes", "value": "abcd"}}),
        (T.XA_PREPARE_LOG_EVENT, {"one_phase": True, "format_id": 1, "gtrid": {"type": "bytes", "value": "6131"},
                                  "bqual": {"type": "bytes", "value": ""}}),
        (T.HEARTBEAT_LOG_EVENT_V2, {"log_filename": "binlog.000001", "log_position": 70000,
                                    "unknown_fields": [{"type": 9, "data": {"type": "bytes", "value": "00"}}]}),
        (T.TRANSACTION_CONTEXT_EVENT, {"server_uuid": "abc", "server_uuid_len": 5, "thread_id": 9,
                                       "gtid_specified": True,
                                       "encoded_snapshot_version": {"type": "bytes", "value": "0102"},
                                       "write_set": ["w1", "w2"], "read_set": ["r"]}),
        (T.VIEW_CHANGE_EVENT, {"view_id": "v1", "seq_number": 3,
                               "certification_info": [{"key": "a", "value": "1"}, {"key": "b", "value": ""}]}),
        (T.BEGIN_LOAD_QUERY_EVENT, {"file_id": 3, "block": {"type": "bytes", "value": "610a620a"}}),
    ]
    got = round_trip(MYSQL, *(ev(c, b) for c, b in bodies))
    for (code, given), e in zip(bodies, got):
        assert e["type_code"] == code
        assert_subset(given, e["body"])


def test_unknown_ignorable_event_round_trips_and_unknown_types_are_refused() -> None:
    (got,) = round_trip(MYSQL, ev(99, {"ignored": True, "data": {"type": "bytes", "value": "0011"}}, flags=0x80))
    assert got["body"]["data"] == {"type": "bytes", "value": "0011"}
    with pytest.raises(EncodeError):
        encode_binlog([fde(MYSQL), ev(99, {"data": {"type": "bytes", "value": "00"}})])


GTID = {"gtid_flags": 1, "sid": "55778904-0299-11f1-b1b8-4ef0c4956feb", "gno": 42, "lt_type": 2,
        "last_committed": 4, "sequence_number": 5, "immediate_commit_timestamp": 1_770_368_687_207_196,
        "original_commit_timestamp": 1_770_368_687_000_000, "transaction_length": 300,
        "immediate_server_version": 90600, "original_server_version": 80040,
        "commit_group_ticket": 7}


@pytest.mark.parametrize("drop", [(), ("commit_group_ticket",),
                                  ("transaction_length", "immediate_server_version", "original_server_version",
                                   "commit_group_ticket")])
def test_gtid_events_round_trip(drop: tuple[str, ...]) -> None:
    body = {k: v for k, v in GTID.items() if k not in drop}
    tagged = {**{k: v for k, v in GTID.items() if k not in ("lt_type", "commit_group_ticket")}, "tag": "mytag"}
    anonymous = {**body, "gno": 0, "sid": "00000000-0000-0000-0000-000000000000"}
    got = round_trip(MYSQL, ev(T.GTID_LOG_EVENT, body), ev(T.ANONYMOUS_GTID_LOG_EVENT, anonymous),
                     ev(T.GTID_TAGGED_LOG_EVENT, tagged))
    assert_subset(body, got[0]["body"])
    assert got[1]["body"]["gtid"] == "ANONYMOUS"
    assert_subset(tagged, got[2]["body"])
    assert got[2]["body"]["gtid"] == GTID["sid"] + ":mytag:42"


def test_previous_gtids_round_trip_in_both_formats() -> None:
    sids = [{"uuid": GTID["sid"], "intervals": [{"start": 1, "end": 5}, {"start": 7, "end": 8}]}]
    got = round_trip(MYSQL, ev(T.PREVIOUS_GTIDS_LOG_EVENT, {"format": "untagged", "sids": sids}),
                     ev(T.PREVIOUS_GTIDS_LOG_EVENT, {"format": "tagged", "sids": [
                         {**sids[0], "tag": ""}, {**sids[0], "tag": "tg"}]}))
    assert got[0]["body"]["gtid_set"] == GTID["sid"] + ":1-4:7"
    assert got[1]["body"]["gtid_set"] == GTID["sid"] + ":1-4:7:tg:1-4:7"


def test_mariadb_events_round_trip() -> None:
    bodies = [
        (T.GTID_LIST_EVENT, {"gl_flags": 0, "list": [{"domain_id": 0, "server_id": 1, "seq_no": 9},
                                                     {"domain_id": 1, "server_id": 2,
                                                      "seq_no": {"type": "int", "value": str(2**60)}}]}),
        (T.GTID_LIST_EVENT, {"gl_flags": 1 << 28, "list": [], "trailing": {"type": "bytes", "value": "0000"}}),
        (T.BINLOG_CHECKPOINT_EVENT, {"binlog_file_name": "mariadb-bin.000001"}),
        (T.GTID_EVENT, {"seq_no": 5, "domain_id": 0, "flags2": 0x08}),
        (T.GTID_EVENT, {"seq_no": 6, "domain_id": 3, "flags2": 0x02 | 0x40, "commit_id": 11,
                        "format_id": 1, "gtrid": {"type": "bytes", "value": "7878"},
                        "bqual": {"type": "bytes", "value": "79"},
                        "flags_extra": 0x01 | 0x04 | 0x10, "extra_engines": 2, "sa_seq_no": 4, "thread_id": 77}),
        (T.ANNOTATE_ROWS_EVENT, {"query": "INSERT INTO t VALUES (1)"}),
        (T.START_ENCRYPTION_EVENT, {"crypto_scheme": 1, "key_version": 2,
                                    "nonce": {"type": "bytes", "value": "00" * 12}}),
    ]
    got = round_trip(MARIADB, *(ev(c, b) for c, b in bodies))
    for (code, given), e in zip(bodies, got):
        assert_subset(given, e["body"])
    assert got[3]["body"]["gtid"] == "0-1-5"
    assert got[3]["event_size"] == 19 + 19 + 4  # a short GTID is padded to its 19-byte post-header


def test_load_events_round_trip() -> None:
    elq = {**_query({}, "LOAD DATA INFILE 'f' INTO TABLE t"), "file_id": 3, "fn_pos_start": 18,
           "fn_pos_end": 21, "dup_handling": 1}
    (got,) = round_trip(MYSQL, ev(T.EXECUTE_LOAD_QUERY_EVENT, elq))
    assert_subset(elq, got["body"])
    assert got["body"]["dup_handling_name"] == "LOAD_DUP_IGNORE"


# -- tables and rows -------------------------------------------------------------------------------

TABLE = {"table_id": 70, "flags": 1, "schema": "db", "table": "t",
         "column_types": [3, 8, 246, 19, 18, 17, 15, 252, 254, 16, 5, 13, 10, 247],
         "column_metadata": [0, 0, (10 << 8) | 2, 3, 6, 0, 40, 2, (254 << 8) | 20, (1 << 8) | 3, 8, 0, 0, 1],
         "null_bitmap": "11111111111111",
         "optional_metadata": [{"type": 1, "name": "SIGNEDNESS", "value": [False, True, False, False]},
                               {"type": 4, "name": "COLUMN_NAME",
                                "value": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"]}]}
ROW = [-1, {"type": "int", "value": str(2**63)}, {"type": "decimal", "value": "-12345678.90"},
       {"type": "time", "value": "-01:02:03.500"}, {"type": "datetime", "value": "2024-02-29 23:59:59.000001"},
       {"type": "timestamp", "value": "1700000000"}, "v\xe9", {"type": "bytes", "value": "00ff"},
       "char", 11, 0.1, 2024, {"type": "date", "value": "2024-00-15"}, 2]


def _rows_body(rows: list[Any], **extra: Any) -> dict[str, Any]:
    return {"table_id": 70, "flags": {"value": 1}, "extra_data": {}, "width": 14,
            "columns_after_image": "1" * 14, "rows": rows, **extra}


def test_table_map_and_rows_of_many_types_round_trip() -> None:
    image = {"values": ROW}
    nulls = {"values": [None] * 13 + [1]}
    update = {**_rows_body([{"before_image": image, "after_image": nulls}]), "columns_before_image": "1" * 14}
    got = round_trip(MYSQL, ev(T.TABLE_MAP_EVENT, TABLE), ev(T.WRITE_ROWS_EVENT, _rows_body([image, nulls])),
                     ev(T.UPDATE_ROWS_EVENT, update))
    assert_subset({k: v for k, v in TABLE.items() if k != "optional_metadata"}, got[0]["body"])
    assert [r["values"] for r in got[1]["body"]["rows"]] == [ROW, nulls["values"]]
    assert got[2]["body"]["rows"][0]["after_image"]["null_bitmap"] == "1" * 13 + "0"


def test_rows_bitmap_padding_is_written_as_given() -> None:
    body = _rows_body([{"values": ROW}], bitmap_padding={"columns": 0, "null": "clear"})
    events = [fde(MYSQL), ev(T.TABLE_MAP_EVENT, TABLE), ev(T.WRITE_ROWS_EVENT, body)]
    plain = encode_binlog(events[:2] + [ev(T.WRITE_ROWS_EVENT, _rows_body([{"values": ROW}]))])
    padded = encode_binlog(events)
    assert len(plain) == len(padded) and plain != padded  # the padding bits differ, nothing else
    assert [e.body for e in decode_bytes(padded)][2]["rows"] == [e.body for e in decode_bytes(plain)][2]["rows"]


def test_rows_without_their_table_map_or_with_wrong_values_are_refused() -> None:
    with pytest.raises(EncodeError):
        encode_binlog([fde(MYSQL), ev(T.WRITE_ROWS_EVENT, _rows_body([{"values": ROW}]))])
    for bad in (ROW[:-1], [2**31] + ROW[1:], ROW[:1] + [-1] + ROW[2:], ROW[:12] + [{"type": "date", "value": "x"}, 2],
                ROW[:2] + [{"type": "decimal", "value": "1e5"}] + ROW[3:]):
        with pytest.raises(EncodeError):
            encode_binlog([fde(MYSQL), ev(T.TABLE_MAP_EVENT, TABLE), ev(T.WRITE_ROWS_EVENT, _rows_body([{"values": bad}]))])


def test_transaction_payload_is_compressed_afresh_or_kept() -> None:
    inner = [ev(T.QUERY_EVENT, _query({}, "BEGIN")), ev(T.TABLE_MAP_EVENT, TABLE),
             ev(T.WRITE_ROWS_EVENT, _rows_body([{"values": ROW}])), ev(T.XID_EVENT, {"xid": 5})]
    for compression in (0, 255):
        (got,) = round_trip(MYSQL, ev(T.TRANSACTION_PAYLOAD_EVENT, {"compression_type": compression, "events": inner}))
        assert [e["type_code"] for e in got["body"]["events"]] == [2, 19, 30, 16]
        assert got["body"]["events"][2]["body"]["rows"][0]["values"] == ROW
    # A kept payload that no longer matches the events is replaced (an edit reaches the bytes).
    edited = {**got["body"], "compression_type": 0, "payload": {"type": "bytes", "value": "28b52ffd00"}}
    (again,) = round_trip(MYSQL, ev(T.TRANSACTION_PAYLOAD_EVENT, edited))
    assert again["body"]["payload"] != edited["payload"]


# -- positions and checksums -----------------------------------------------------------------------

def test_checksum_options_keep_or_recompute() -> None:
    data = cb.binlog(MYSQL, (T.XID_EVENT, struct.pack("<Q", 5)))
    events = [e.to_json() for e in decode_bytes(data)]
    assert encode_binlog(events) == data
    events[1]["checksum"]["stored"] ^= 1
    assert encode_binlog(events) == data  # computed
    kept = encode_binlog(events, options=Options(checksums="keep"))
    with pytest.raises(BinlogError):
        list(decode_bytes(kept))
    assert list(decode_bytes(kept, verify_checksums=False))[1].body == {"xid": 5}


def test_positions_keep_or_recompute() -> None:
    data = cb.binlog(MYSQL, (T.XID_EVENT, struct.pack("<Q", 5)))
    events = [e.to_json() for e in decode_bytes(data)]
    events[1]["next_position"] = 12345
    assert list(decode_bytes(encode_binlog(events)))[1].next_position == 12345
    fixed = list(decode_bytes(encode_binlog(events, options=Options(positions="recompute"))))[1]
    assert fixed.next_position == fixed.position + fixed.event_size


def test_with_framing_rewrites_only_size_and_position() -> None:
    """The repair primitive of harness/mutations: the fields header_bytes writes, at the same
    offsets, and every other byte of the header as it was (bytes past 19 included)."""
    from oracle.encode.framing import header_bytes, with_framing
    v4 = header_bytes(19, 7, T.XID_EVENT, 9, 1, 2, 0x40)
    assert with_framing(v4, event_size=31, log_pos=0x1_0000_0005) == header_bytes(19, 7, T.XID_EVENT, 9, 31, 5, 0x40)
    long = v4 + b"\xaa\xbb"
    assert with_framing(long, event_size=3) == header_bytes(19, 7, T.XID_EVENT, 9, 3, 2, 0x40) + b"\xaa\xbb"
    v1 = header_bytes(13, 7, T.QUERY_EVENT, 9, 1, None, 0)
    assert with_framing(v1, event_size=50) == header_bytes(13, 7, T.QUERY_EVENT, 9, 50, None, 0)
    with pytest.raises(EncodeError):
        with_framing(v1, log_pos=4)


# -- robustness: whatever the decoder accepts, the encoder writes back faithfully -----------------

def _seed_files() -> list[bytes]:
    wanted = ("binlog_transaction_with_GTID.000001", "mariadb-repl-bin.000009", "bug16266.000001",
              "binlog_transaction_with_GTID_TAG.000001", "mysql-bin.default-path")
    return [b.path.read_bytes() for b in manifest() if b.path.is_file() and b.name.endswith(wanted)]


SEEDS = _seed_files()


@pytest.mark.skipif(not SEEDS, reason="no external binlogs on this machine")
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), flips=st.integers(1, 6))
def test_decode_encode_decode_is_stable_on_mutated_logs(seed: int, flips: int) -> None:
    """Random byte changes in a real log; every event the oracle still decodes (checksums not
    verified) is written back, and the result decodes to the same bodies. The encoder may refuse
    nothing the decoder produced outside the rows family."""
    rng = random.Random(seed)
    data = bytearray(rng.choice(SEEDS))
    for _ in range(flips):
        data[rng.randrange(4, len(data))] = rng.randrange(256)
    events = []
    try:
        for e in decode_bytes(bytes(data), verify_checksums=False):
            events.append(e.to_json())
    except BinlogError:
        pass
    events = [e for e in events if e["type_code"] not in ROWS_FAMILY]
    try:
        out = encode_binlog(events)
    except EncodeError as e:
        # A value the decoder produced but that cannot be written must at least be named.
        assert str(e)
        return
    again = [e.to_json() for e in decode_bytes(out, verify_checksums=False)]
    assert encode_binlog(again) == out  # a second pass changes nothing
    assert [_without_lengths(e["body"]) for e in again] == [_without_lengths(e["body"]) for e in events]


# Length fields the encoder recomputes from the data; a mutated log may have stored others
# (a status variable logged twice, for one: the decoder keeps the last value).
_LENGTHS = {"status_vars_len", "db_len", "table_name_len", "num_fields", "field_lens", "binlog_file_len"}


def _without_lengths(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in _LENGTHS}


def test_nan_user_var_keeps_its_tag() -> None:
    body = {**USER_VARS[3], "value": {"type": "double", "value": "nan"}}
    (got,) = round_trip(MYSQL, ev(T.USER_VAR_EVENT, body))
    assert got["body"]["value"]["value"] == "nan" and math.isnan(float(got["body"]["value"]["value"]))


# -- binary JSON -----------------------------------------------------------------------------------

_json_scalars = (st.none() | st.booleans() | st.integers(-(2**64), 2**64 + 5)
                 | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
_json_docs = st.recursive(_json_scalars, lambda inner: st.lists(inner, max_size=5)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(_json_docs)
def test_binary_json_reads_back_as_the_document(doc: Any) -> None:
    b = document_bytes(json.dumps(doc))
    text = to_json_text(decode_jsonb(b))
    # the canonical (quoted) text of our bytes encodes to the same bytes; the bare form of a
    # top-level string cannot ("true" would read as the literal)
    assert document_bytes(to_json_text(decode_jsonb(b), quoted=True)) == b
    if isinstance(doc, str):
        assert text == doc  # a top-level string prints bare
    else:
        assert json.loads(text) == doc


def test_binary_json_layout_matches_mysql_for_a_small_object() -> None:
    # {"a": 1, "bb": [true, "x"]}: keys by length, int16 and literal inlined, 2-byte offsets:
    # 18 bytes of header, keys at 18 and 19, the array at 21 (12 bytes: 10 of header, "x").
    b = document_bytes('{"bb": [true, "x"], "a": 1}')
    assert b.hex() == ("00" "0200" "2100" "1200" "0100" "1300" "0200" "050100" "021500"
                       "61" "6262" "0200" "0c00" "040100" "0c0a00" "0178")
    assert to_json_text(decode_jsonb(b)) == '{"a": 1, "bb": [true, "x"]}'


def test_binary_json_uses_the_large_form_only_when_needed_and_keeps_decimals() -> None:
    big = document_bytes(json.dumps(["x" * 70000, 1]))
    assert big[0] == 3 and json.loads(to_json_text(decode_jsonb(big))) == ["x" * 70000, 1]
    assert document_bytes('[["x"], 1]')[0] == 2
    assert to_json_text(decode_jsonb(document_bytes('{"e": 9.00, "f": 1.5}'))) == '{"e": 9.00, "f": 1.5}'


def test_binary_json_integers_are_signed_unless_listed_unsigned() -> None:
    # Json_int and Json_uint each take their narrowest form; the text cannot tell them apart
    # (MySQL's parser makes 4294967296 a Json_uint, JSON_ARRAY(4294967296) a Json_int), so the
    # decoder's "unsigned" list says which; from scratch only a value past int64 is unsigned.
    text = "[4294967296, 65535, 7, 9223372036854775808]"
    types = [document_bytes(text)[5 + 3 * i] for i in range(4)]
    assert types == [0x09, 0x07, 0x05, 0x0A]  # INT64, INT32, INT16 (inlined), UINT64
    listed = document_bytes(text, unsigned=[[0], [1], [2], [3]])
    assert [listed[5 + 3 * i] for i in range(4)] == [0x0A, 0x06, 0x06, 0x0A]  # UINT64, UINT16 x2
    assert canonical_at(listed, 0, len(listed))["unsigned"] == [[0], [1], [2], [3]]
    with pytest.raises(EncodeError):
        document_bytes(text, unsigned=[[4]])
    with pytest.raises(EncodeError):
        document_bytes('[-1]', unsigned=[[0]])


def test_json_diff_list_round_trips() -> None:
    from oracle.codecs.jsondiff import decode_json_diffs, diffs_to_canonical
    diffs = {"type": "json_diff", "value": [
        {"operation": "REPLACE", "path": "$.a", "value": {"type": "json", "value": "[1, 2]"}},
        {"operation": "INSERT", "path": "$.b[0]", "value": {"type": "json", "value": '"x"'}},
        {"operation": "REMOVE", "path": "$.c", "value": None}]}
    assert diffs_to_canonical(decode_json_diffs(json_diff_bytes(diffs))) == diffs
    with pytest.raises(EncodeError):
        json_diff_bytes({"type": "json_diff", "value": [{"operation": "MOVE", "path": "$", "value": None}]})
