"""Query (and its status variables), session-variable, Xid, Load, Incident, Heartbeat, Ignorable
and Rows_query decoders.

Values asserted on the external binlogs were read off `mariadb-binlog -vvv` (Debian's client,
Ver 3.5) run on the same files; the hand-built logs in the middle section were also fed to it, and
the values it printed are the ones asserted (comments say so). Layout facts for what no tool here
prints (MySQL status codes 12..21, MariaDB 131) come from the servers' sources, cited in
oracle/events/status_vars.py.
"""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle import BinlogError, decode_bytes, decode_file
from oracle.context import DecodeContext
from oracle.errors import BadEventBody, DecompressionError, LengthPastEnd, TruncatedEvent, UnknownStatusVar
from oracle.fde import FormatDescription, old_format
from oracle.header import Header
from oracle.reader import Reader
from oracle.events import (heartbeat, ignorable, incident, load, query, rows_query, session_vars,
                           xid)
from tests.classic_binlog import (MARIADB_VERSION, MYSQL_VERSION, POST_HEADER, binlog, query_body,
                                  user_var_body)
from tests.external import ROOT

RUST = ROOT / "blackbeam__rust_mysql_common"
needs_external = pytest.mark.skipif(not RUST.exists(), reason="../shared/external-binlogs is not there")
ORIGIN = 1000  # bodies are decoded as if they sat at this file offset


def _events(name: str) -> dict[int, dict]:
    return {e.position: e.to_json() for e in decode_file(RUST / f"test-data__binlogs__{name}")}


def ctx_for(version: str) -> DecodeContext:
    lengths = tuple(POST_HEADER.get(code, 0) for code in range(1, 172))
    return DecodeContext(format=FormatDescription(4, version, 0, 19, lengths, 1))


MYSQL = ctx_for(MYSQL_VERSION)
MARIADB = ctx_for(MARIADB_VERSION)


def run(decoder, body: bytes, type_code: int, ctx: DecodeContext = MYSQL, log_pos: int = 1000) -> dict:
    header = Header(1_700_000_000, type_code, 1, 19 + len(body), log_pos, 0)
    out = decoder(Reader(body, origin=ORIGIN), ctx, header)
    json.dumps(out)  # bodies must be JSON-serialisable
    return out


def status_of(status: bytes, ctx: DecodeContext = MYSQL) -> dict:
    return run(query.decode, query_body(b"SELECT 1", status=status), 2, ctx)["status_vars"]


# -- real binlogs --------------------------------------------------------------------------------

@needs_external
def test_mysql_8_query_and_xid():
    ev = _events("binlog-invisible-columns.000001")
    q = ev[235]["body"]  # mariadb-binlog: thread_id=8 exec_time=0 error_code=0, sql_mode=1168113696
    assert (q["thread_id"], q["query_exec_time"], q["error_code"], q["db"]) == (8, 0, 0, "")
    sv = q["status_vars"]
    assert sv["Q_SQL_MODE_CODE"] == 1168113696
    assert sv["Q_CHARSET_CODE"] == {"character_set_client": 255, "collation_connection": 255,
                                    "collation_server": 255}
    assert sv["Q_TIME_ZONE_CODE"] == "SYSTEM"
    assert sv["Q_INVOKER"] == {"user": "root", "host": "localhost"}
    assert sv["Q_UPDATED_DB_NAMES"]["mts_accessed_db_names"] == ["mysql"]
    assert q["query"].startswith("ALTER USER 'root'@'localhost' IDENTIFIED WITH 'caching_sha2_password'")
    assert q["status_vars_len"] == 74
    assert ev[570]["body"]["db"] == "mysql"  # use `mysql`
    assert ev[1089]["body"] == {"xid": 53}  # Xid = 53


@needs_external
def test_mysql_5_1_session_vars_and_load_data():
    ev = _events("ver_5_1_23.001")
    assert ev[1044]["body"] == {"name": "x", "is_null": False, "type": "INT", "charset": 63,
                                "flags": None, "value": 4}  # SET @`x`:=4 (5.1: no flags byte)
    assert ev[1183]["body"] == {"seed1": 206881985, "seed2": 103665823}
    assert ev[1331]["body"] == {"type": 1, "type_name": "LAST_INSERT_ID", "val": 0}
    blq, ab = ev[1480]["body"], ev[132575]["body"]
    assert (blq["file_id"], len(blq["block"]["value"]) // 2) == (2, 131072)  # block_len: 131072
    assert (ab["file_id"], len(ab["block"]["value"]) // 2) == (2, 17664)
    elq = ev[150262]["body"]
    assert (elq["file_id"], elq["dup_handling"], elq["db"]) == (2, 0, "test")
    assert elq["query"] == "LOAD DATA INFILE 'big_file.dat' INTO TABLE t3"
    # mariadb-binlog replaces exactly this range: LOAD DATA LOCAL INFILE '/tmp/SQL_LOAD_MB-2-2' INTO TABLE t3
    assert elq["query"][elq["fn_pos_start"]:elq["fn_pos_end"]] == " INFILE 'big_file.dat' INTO"


@needs_external
def test_user_var_null_and_flags_byte():
    assert _events("bug11747887-bin.000003")[422]["body"] == {
        "name": "2", "is_null": True, "type": "STRING", "charset": 63, "flags": None, "value": None}
    assert _events("ver_trunk_row_v2.001")[1740]["body"]["flags"] == 0  # trunk writes the flags byte


@needs_external
def test_updated_db_names_over_max():
    """MySQL writes 254 (OVER_MAX_DBS_IN_EVENT_MTS) for a BEGIN, and no names after it."""
    sv = _events("binlog_transaction_with_GTID_TAG.000001")[328]["body"]["status_vars"]
    assert sv["Q_UPDATED_DB_NAMES"] == {"mts_accessed_dbs": 254, "over_max_dbs_in_event_mts": True,
                                        "mts_accessed_db_names": []}
    assert sv["Q_DEFAULT_COLLATION_FOR_UTF8MB4"] == 255


@needs_external
def test_broken_externals_end_in_typed_errors():
    with pytest.raises(BadEventBody) as e:  # Incident number 66 (0x42): only 1 is defined
        list(decode_file(RUST / "test-data__binlogs__bug40482-bin.000001"))
    assert (e.value.event_offset, e.value.offset) == (106, 125)
    with pytest.raises(LengthPastEnd) as e:  # garbage: status_vars_len 16949 in a 171-byte event
        list(decode_file(RUST / "test-data__binlogs__corrupt-relay-bin.000624"))
    assert (e.value.event_offset, e.value.offset) == (91204, 91236)


# -- hand-built logs, checked against mariadb-binlog ---------------------------------------------

FULL_MARIADB_STATUS = (
    b"\x00" + struct.pack("<I", 0x4000) + b"\x01" + struct.pack("<Q", 0x200000) + b"\x06\x03std"
    + b"\x03" + struct.pack("<HH", 2, 3) + b"\x04" + struct.pack("<HHH", 33, 33, 8) + b"\x05\x06+01:00"
    + b"\x07" + struct.pack("<H", 1) + b"\x08" + struct.pack("<H", 33) + b"\x09" + struct.pack("<Q", 5)
    + b"\x0b\x04root\x09localhost" + b"\x80" + (123456).to_bytes(3, "little")
    + b"\x81" + struct.pack("<Q", 4242) + b"\x82\x04" + struct.pack("<Q", 99)
    + b"\x83\x01" + struct.pack("<HH", 33, 83))


def test_mariadb_log_with_every_status_var_and_user_var_type():
    """mariadb-binlog -vvv on this log printed: SET @`d`:=123.45, @`nd`:=-123.45, @`r`:=0.1,
    @`i`:=-5, @`u`:=18446744073709551615, @`s`:=_utf8mb3 X'68C3A96C6C6F', @`n`:=NULL,
    INSERT_ID=77, RAND_SEED1=11/SEED2=22, and for the Query xid=4242, TIMESTAMP=1700000000.123456,
    sql_auto_is_null=1, sql_mode=2097152, auto_increment 2/3, client utf8mb3 33/33/8,
    time_zone '+01:00', lc_time_names=1, collation_database=33; Xid = 31337; Incident LOST_EVENTS."""
    log = binlog(MARIADB_VERSION,
                 (14, user_var_body(b"d", 4, b"\x05\x02\x80\x7b\x2d", charset=63)),
                 (14, user_var_body(b"nd", 4, b"\x05\x02\x7f\x84\xd2", charset=63)),
                 (14, user_var_body(b"r", 1, struct.pack("<d", 0.1), charset=63)),
                 (14, user_var_body(b"i", 2, struct.pack("<q", -5), charset=63, flags=0)),
                 (14, user_var_body(b"u", 2, struct.pack("<Q", 2**64 - 1), charset=63, flags=1)),
                 (14, user_var_body(b"s", 0, "héllo".encode())),
                 (14, user_var_body(b"n", None)),
                 (5, b"\x02" + struct.pack("<Q", 77)),
                 (13, struct.pack("<QQ", 11, 22)),
                 (2, query_body(b"INSERT INTO t VALUES (@d)", status=FULL_MARIADB_STATUS)),
                 (16, struct.pack("<Q", 31337)),
                 (26, b"\x01\x00\x0blost events"))
    bodies = [e.to_json()["body"] for e in decode_bytes(log)][1:]
    values = [b["value"] for b in bodies[:7]]
    assert values == [{"type": "decimal", "value": "123.45"}, {"type": "decimal", "value": "-123.45"},
                      0.1, -5, {"type": "int", "value": "18446744073709551615"}, "héllo", None]
    assert bodies[7] == {"type": 2, "type_name": "INSERT_ID", "val": 77}
    assert bodies[8] == {"seed1": 11, "seed2": 22}
    assert bodies[9]["status_vars"] == {
        "Q_FLAGS2_CODE": 0x4000, "Q_SQL_MODE_CODE": 2097152, "Q_CATALOG_NZ_CODE": "std",
        "Q_AUTO_INCREMENT": {"auto_increment_increment": 2, "auto_increment_offset": 3},
        "Q_CHARSET_CODE": {"character_set_client": 33, "collation_connection": 33, "collation_server": 8},
        "Q_TIME_ZONE_CODE": "+01:00", "Q_LC_TIME_NAMES_CODE": 1, "Q_CHARSET_DATABASE_CODE": 33,
        "Q_TABLE_MAP_FOR_UPDATE_CODE": 5, "Q_INVOKER": {"user": "root", "host": "localhost"},
        "Q_HRNOW": 123456, "Q_XID": 4242, "Q_GTID_FLAGS3": {"gtid_flags_extra": 4, "sa_seq_no": 99},
        "Q_CHARACTER_SET_COLLATIONS": [{"charset": 33, "collation": 83}]}
    assert bodies[10] == {"xid": 31337}
    assert bodies[11] == {"incident": 1, "incident_name": "INCIDENT_LOST_EVENTS", "message": "lost events"}


def test_old_catalog_form_keeps_its_nul():
    """Q_CATALOG_CODE (5.0.0-5.0.3): mariadb-binlog read the next variable (latin1 charset 8/8/8)
    after skipping length + catalog + NUL, as this does."""
    sv = status_of(b"\x02\x03std\x00" + b"\x04" + struct.pack("<HHH", 8, 8, 8), MARIADB)
    assert sv == {"Q_CATALOG_CODE": "std", "Q_CHARSET_CODE": {
        "character_set_client": 8, "collation_connection": 8, "collation_server": 8}}
    with pytest.raises(BadEventBody):
        status_of(b"\x02\x03stdX")


# -- status variables: every code, both flavors ------------------------------------------------

MYSQL_ONLY = [
    (b"\x0c\x02db1\x00db2\x00", "Q_UPDATED_DB_NAMES",
     {"mts_accessed_dbs": 2, "over_max_dbs_in_event_mts": False, "mts_accessed_db_names": ["db1", "db2"]}),
    (b"\x0c\xfe", "Q_UPDATED_DB_NAMES",
     {"mts_accessed_dbs": 254, "over_max_dbs_in_event_mts": True, "mts_accessed_db_names": []}),
    (b"\x0d\x3f\x42\x0f", "Q_MICROSECONDS", 999999),
    (b"\x0e" + struct.pack("<Q", 2**63), "Q_COMMIT_TS", {"type": "int", "value": str(2**63)}),
    (b"\x0f\x01\x02", "Q_COMMIT_TS2", {"type": "bytes", "value": "0102"}),
    (b"\x10\x01", "Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP", 1),
    (b"\x11" + struct.pack("<Q", 12), "Q_DDL_LOGGED_WITH_XID", 12),
    (b"\x12" + struct.pack("<H", 255), "Q_DEFAULT_COLLATION_FOR_UTF8MB4", 255),
    (b"\x13\x01", "Q_SQL_REQUIRE_PRIMARY_KEY", 1),
    (b"\x14\x00", "Q_DEFAULT_TABLE_ENCRYPTION", 0),
    (b"\x15\x01", "Q_ENABLE_CASCADE_TRIGGERS", 1),
]
MARIADB_ONLY = [
    (b"\x80\x01\x00\x00", "Q_HRNOW", 1),
    (b"\x81" + struct.pack("<Q", 7), "Q_XID", 7),
    (b"\x82\x01", "Q_GTID_FLAGS3", {"gtid_flags_extra": 1}),  # no ALTER completion: no seq_no
    (b"\x82\x08" + struct.pack("<Q", 3), "Q_GTID_FLAGS3", {"gtid_flags_extra": 8, "sa_seq_no": 3}),
    (b"\x83\x00", "Q_CHARACTER_SET_COLLATIONS", []),
    (b"\x83\x02" + struct.pack("<HHHH", 33, 83, 45, 46), "Q_CHARACTER_SET_COLLATIONS",
     [{"charset": 33, "collation": 83}, {"charset": 45, "collation": 46}]),
    (b"\xff\x09\x09", "Q_DUMMY", {"type": "bytes", "value": "0909"}),
]
SHARED = [
    (b"\x00\x00\x40\x00\x00", "Q_FLAGS2_CODE", 0x4000),
    (b"\x01" + struct.pack("<Q", 2**64 - 1), "Q_SQL_MODE_CODE", {"type": "int", "value": str(2**64 - 1)}),
    (b"\x02\x00\x00", "Q_CATALOG_CODE", ""),
    (b"\x03\x01\x00\x01\x00", "Q_AUTO_INCREMENT", {"auto_increment_increment": 1, "auto_increment_offset": 1}),
    (b"\x05\x00", "Q_TIME_ZONE_CODE", ""),
    (b"\x06\x03\xff\xfe\x00", "Q_CATALOG_NZ_CODE", {"type": "bytes", "value": "fffe00"}),
    (b"\x07\x02\x00", "Q_LC_TIME_NAMES_CODE", 2),
    (b"\x08\xe0\x00", "Q_CHARSET_DATABASE_CODE", 224),
    (b"\x09" + struct.pack("<Q", 3), "Q_TABLE_MAP_FOR_UPDATE_CODE", 3),
    (b"\x0a" + struct.pack("<I", 500), "Q_MASTER_DATA_WRITTEN_CODE", 500),
    (b"\x0b\x00\x00", "Q_INVOKER", {"user": "", "host": ""}),
]


REST_OF_BLOCK = ("Q_COMMIT_TS2", "Q_DUMMY")  # no length of their own: the rest of the status block


def _ids(cases):
    return [f"{name}-{i}" for i, (_, name, _) in enumerate(cases)]


@pytest.mark.parametrize("raw,name,value", MYSQL_ONLY + SHARED, ids=_ids(MYSQL_ONLY + SHARED))
def test_mysql_status_var(raw, name, value):
    assert status_of(raw) == {name: value}


@pytest.mark.parametrize("raw,name,value", MARIADB_ONLY + SHARED, ids=_ids(MARIADB_ONLY + SHARED))
def test_mariadb_status_var(raw, name, value):
    assert status_of(raw, MARIADB) == {name: value}


@pytest.mark.parametrize("raw,name,value", MYSQL_ONLY + MARIADB_ONLY + SHARED,
                         ids=_ids(MYSQL_ONLY + MARIADB_ONLY + SHARED))
def test_truncated_status_var_is_a_typed_error(raw, name, value):
    ctx = MARIADB if (raw, name, value) in MARIADB_ONLY else MYSQL
    for cut in range(1, len(raw)):
        if name in REST_OF_BLOCK:  # these take whatever is left of the block: a cut is shorter
            assert status_of(raw[:cut], ctx) == {name: {"type": "bytes", "value": raw[1:cut].hex()}}
            continue
        with pytest.raises((TruncatedEvent, LengthPastEnd)):
            status_of(raw[:cut], ctx)


@pytest.mark.parametrize("code,ctx", [(0x80, MYSQL), (0x16, MYSQL), (0xFF, MYSQL), (0x0C, MARIADB),
                                      (0x15, MARIADB), (0x84, MARIADB)])
def test_unknown_status_var_code(code, ctx):
    """Each flavor's codes are unknown to the other; the error points at the code byte."""
    body = query_body(b"SELECT 1", status=b"\x05\x00" + bytes([code, 0, 0, 0]))
    with pytest.raises(UnknownStatusVar) as e:
        run(query.decode, body, 2, ctx)
    assert e.value.offset == ORIGIN + 13 + 2


def test_updated_db_names_errors():
    with pytest.raises(BadEventBody):
        status_of(b"\x0c\x00")  # MySQL: "Invalid MTA accessed databases"
    with pytest.raises(TruncatedEvent):
        status_of(b"\x0c\x02db1\x00db2")  # the last name runs past the block


def test_duplicate_status_var_keeps_the_last():
    assert status_of(b"\x07\x01\x00\x07\x02\x00") == {"Q_LC_TIME_NAMES_CODE": 2}


# -- Query layout --------------------------------------------------------------------------------

def test_query_fields_and_binary_query():
    body = run(query.decode, query_body(b"SELECT '\xff'", db=b"", thread_id=2**32 - 1, exec_time=3,
                                        error_code=1062), 2)
    assert body == {"thread_id": 2**32 - 1, "query_exec_time": 3, "db_len": 0, "error_code": 1062,
                    "status_vars_len": 0, "status_vars": {}, "db": "",
                    "query": {"type": "bytes", "value": b"SELECT '\xff'".hex()}}


@pytest.mark.parametrize("version", [1, 3])
def test_query_in_binlog_v1_and_v3_has_no_status_vars(version):
    ctx = DecodeContext(format=old_format(version))
    raw = struct.pack("<IIBH", 5, 1, 2, 0) + b"db\0" + b"DROP TABLE t"
    assert run(query.decode, raw, 2, ctx) == {
        "thread_id": 5, "query_exec_time": 1, "db_len": 2, "error_code": 0, "status_vars_len": None,
        "status_vars": {}, "db": "db", "query": "DROP TABLE t"}


def test_query_longer_post_header_is_skipped():
    """A newer server may lengthen the post-header; what follows the known fields is skipped."""
    lengths = list(MYSQL.format.post_header_lengths)
    lengths[1] = 15
    ctx = DecodeContext(format=FormatDescription(4, MYSQL_VERSION, 0, 19, tuple(lengths), 1))
    raw = query_body(b"SELECT 1", status=b"\x07\x01\x00", extra_post_header=b"\xaa\xbb")
    assert run(query.decode, raw, 2, ctx)["status_vars"] == {"Q_LC_TIME_NAMES_CODE": 1}


def test_query_errors():
    with pytest.raises(BadEventBody):  # db not NUL-terminated
        run(query.decode, struct.pack("<IIBHH", 1, 0, 2, 0, 0) + b"dbXSELECT", 2)
    with pytest.raises(LengthPastEnd):  # db_len past the end
        run(query.decode, struct.pack("<IIBHH", 1, 0, 200, 0, 0) + b"db\0", 2)
    with pytest.raises(LengthPastEnd):  # status_vars_len past the end
        run(query.decode, struct.pack("<IIBHH", 1, 0, 0, 0, 300) + b"\0", 2)
    with pytest.raises(TruncatedEvent):
        run(query.decode, b"\x01\x00\x00", 2)


def _mariadb_compressed(data: bytes) -> bytes:
    """MariaDB's binlog_buf_compress: 0x80 | bytes-of-length, big-endian length, zlib stream."""
    return bytes([0x81]) + len(data).to_bytes(1, "big") + zlib.compress(data)


def test_compressed_query():
    text = b"INSERT INTO t VALUES ('" + b"x" * 200 + b"')"
    raw = query_body(_mariadb_compressed(text), status=b"\x81" + struct.pack("<Q", 9))
    body = run(query.decode_compressed, raw, 165, MARIADB)
    assert body["query"] == text.decode() and body["status_vars"] == {"Q_XID": 9}
    bad = query_body(bytes([0x81, 10]) + zlib.compress(b"short"))
    with pytest.raises(DecompressionError):
        run(query.decode_compressed, bad, 165, MARIADB)


# -- session variables ---------------------------------------------------------------------------

def test_user_var_values():
    def value(*args, **kw):
        return run(session_vars.decode_user_var, user_var_body(*args, **kw), 14)["value"]
    assert value(b"r", 1, struct.pack("<d", -1.5e300)) == -1.5e300
    assert value(b"r", 1, struct.pack("<d", float("inf"))) == {"type": "double", "value": "inf"}
    assert value(b"i", 2, struct.pack("<q", -2**63), flags=0) == {"type": "int", "value": str(-2**63)}
    assert value(b"i", 2, struct.pack("<Q", 2**63), flags=1) == {"type": "int", "value": str(2**63)}
    # DECIMAL(20,10) 1234567890.0123456789, bytes after the value ignored as the servers do
    dec = bytes([20, 10]) + bytes([0x81, 0x0D, 0xFB, 0x38, 0xD2, 0x00, 0xBC, 0x61, 0x4E, 0x09]) + b"\x00"
    assert value(b"d", 4, dec) == {"type": "decimal", "value": "1234567890.0123456789"}


@pytest.mark.parametrize("raw", [
    user_var_body(b"", 0, b"x"),                      # empty name
    user_var_body(b"v", 3, b"x"),                     # ROW_RESULT
    user_var_body(b"v", 9, b"x"),                     # undefined type
    user_var_body(b"v", 1, b"\0" * 7),                # REAL not 8 bytes
    user_var_body(b"v", 2, b"\0" * 9),                # INT not 8 bytes
    user_var_body(b"v", 4, b"\x05"),                  # DECIMAL without scale
    user_var_body(b"v", 4, b"\x42\x02" + b"\0" * 40),  # precision 66
    user_var_body(b"v", 4, b"\x05\x06" + b"\0" * 8),  # scale above precision
    user_var_body(b"v", 4, b"\x05\x02\x80\x7b"),      # value shorter than DECIMAL(5,2)
    user_var_body(b"v", 4, b"\x02\x00\xe4"),          # digit group 100 in a 2-digit slot
])
def test_user_var_errors(raw):
    with pytest.raises(BadEventBody):
        run(session_vars.decode_user_var, raw, 14)


def test_intvar_unknown_subtype_and_xid():
    assert run(session_vars.decode_intvar, b"\x07" + struct.pack("<Q", 2**64 - 1), 5) == {
        "type": 7, "type_name": "UNKNOWN", "val": {"type": "int", "value": str(2**64 - 1)}}
    assert run(xid.decode, struct.pack("<Q", 2**53), 16) == {"xid": {"type": "int", "value": str(2**53)}}
    with pytest.raises(TruncatedEvent):
        run(xid.decode, b"\0" * 7, 16)


# -- LOAD DATA events ----------------------------------------------------------------------------

LOAD_FIXED = struct.pack("<IIIBBI", 3, 1, 2, 2, 4, 2)  # thread, exec, skip_lines, t1, test, 2 fields
LOAD_TAIL = b"\x01\x02" + b"a\0bb\0" + b"t1\0" + b"test\0"
LOAD_EXPECTED = {"thread_id": 3, "exec_time": 1, "skip_lines": 2, "table_name_len": 2, "db_len": 4,
                 "num_fields": 2, "field_lens": [1, 2], "fields": ["a", "bb"], "table_name": "t1",
                 "db": "test"}


def test_old_load_event():
    sql_ex = b",\"\n\0\\" + b"\x02" + b"\x08"  # single chars; LINE_START_EMPTY
    body = run(load.decode_load, LOAD_FIXED + sql_ex + LOAD_TAIL + b"/tmp/f.txt\0junk", 6)
    assert body == {**LOAD_EXPECTED, "fname": "/tmp/f.txt", "sql_ex": {
        "field_term": ",", "enclosed": '"', "line_term": "\n", "line_start": "\0", "escaped": "\\",
        "opt_flags": 2, "empty_flags": 8}}


def test_new_load_and_create_file():
    sql_ex = b"\x02,,\x00\x02\r\n\x00\x01\\" + b"\x04"
    body = run(load.decode_new_load, LOAD_FIXED + sql_ex + LOAD_TAIL + b"in.csv", 12)
    new_sql_ex = {"field_term": ",,", "enclosed": "", "line_term": "\r\n", "line_start": "",
                  "escaped": "\\", "opt_flags": 4, "empty_flags": None}
    assert body == {**LOAD_EXPECTED, "sql_ex": new_sql_ex, "fname": "in.csv"}
    cf = run(load.decode_create_file,
             LOAD_FIXED + struct.pack("<I", 9) + sql_ex + LOAD_TAIL + b"in.csv\0" + b"1,2\n", 8)
    assert cf == {**LOAD_EXPECTED, "sql_ex": new_sql_ex, "file_id": 9, "fname": "in.csv",
                  "block": {"type": "bytes", "value": b"1,2\n".hex()}}
    v1 = run(load.decode_create_file, LOAD_FIXED + b"\0" * 4 + sql_ex + LOAD_TAIL + b"in.csv",
             8, DecodeContext(format=old_format(1)))
    assert (v1["file_id"], v1["block"], v1["fname"]) == (None, None, "in.csv")
    with pytest.raises(TruncatedEvent):  # v4 Create_file: the name must end in a NUL before the block
        run(load.decode_create_file, LOAD_FIXED + struct.pack("<I", 9) + sql_ex + LOAD_TAIL + b"in.csv", 8)
    with pytest.raises(BadEventBody):  # field name without its NUL
        run(load.decode_new_load, LOAD_FIXED + sql_ex + b"\x01\x02a!bb\0t1\0test\0f", 12)


def test_file_id_events():
    assert run(load.decode_exec_load, struct.pack("<I", 5), 10) == {"file_id": 5}
    assert run(load.decode_delete_file, struct.pack("<I", 6), 11) == {"file_id": 6}
    assert run(load.decode_append_block, struct.pack("<I", 7) + b"ab", 9) == {
        "file_id": 7, "block": {"type": "bytes", "value": "6162"}}
    assert run(load.decode_begin_load_query, struct.pack("<I", 8), 17)["file_id"] == 8


def _elq(fn_start: int, fn_end: int, dup: int) -> bytes:
    return query_body(b"LOAD DATA INFILE 'x' INTO TABLE t", status=b"\x07\x00\x00",
                      extra_post_header=struct.pack("<IIIB", 4, fn_start, fn_end, dup))


def test_execute_load_query():
    body = run(load.decode_execute_load_query, _elq(9, 20, 2), 18)
    assert (body["file_id"], body["fn_pos_start"], body["fn_pos_end"], body["dup_handling_name"]) == (
        4, 9, 20, "LOAD_DUP_REPLACE")
    assert body["status_vars"] == {"Q_LC_TIME_NAMES_CODE": 0}
    assert body["query"] == "LOAD DATA INFILE 'x' INTO TABLE t"
    for bad in (_elq(9, 40, 0), _elq(40, 9, 0), _elq(9, 20, 3)):
        with pytest.raises(BadEventBody):
            run(load.decode_execute_load_query, bad, 18)


# -- Incident, Heartbeat, Ignorable, Rows_query ---------------------------------------------------

def test_incident():
    assert run(incident.decode, b"\x01\x00\x00", 26)["message"] == ""
    for number in (0, 2, 0xFFFF):
        with pytest.raises(BadEventBody):
            run(incident.decode, struct.pack("<H", number) + b"\x00", 26)
    with pytest.raises(LengthPastEnd):
        run(incident.decode, b"\x01\x00\x05abc", 26)


def test_heartbeat_v1():
    assert run(heartbeat.decode_v1, b"binlog.000007", 27) == {"log_pos": None, "log_ident": "binlog.000007"}
    big = struct.pack("<Q", 2**33) + b"mariadb-bin.000002"
    assert run(heartbeat.decode_v1, big, 27, MARIADB, log_pos=0) == {
        "log_pos": 2**33, "log_ident": "mariadb-bin.000002"}
    with pytest.raises(BadEventBody):
        run(heartbeat.decode_v1, b"", 27)
    with pytest.raises(BadEventBody):
        run(heartbeat.decode_v1, b"binlog.000001", 27, MYSQL, log_pos=0)


def test_heartbeat_v2():
    name = b"binlog.000041"
    raw = (b"\x01" + bytes([len(name)]) + name + b"\x02\x04\xfd\x15\xcd\x5b" + b"\x09\x01\xaa" + b"\x00")
    assert run(heartbeat.decode_v2, raw, 41) == {
        "log_filename": "binlog.000041", "log_position": 0x5BCD15,
        "unknown_fields": [{"type": 9, "data": {"type": "bytes", "value": "aa"}}]}
    assert run(heartbeat.decode_v2, b"\x00", 41)["log_filename"] is None
    with pytest.raises(BadEventBody):  # the position field is longer than its packed integer
        run(heartbeat.decode_v2, b"\x02\x02\x05\x00", 41)
    with pytest.raises(LengthPastEnd):
        run(heartbeat.decode_v2, b"\x01\x10abc", 41)


def test_ignorable_and_rows_query():
    assert run(ignorable.decode, b"\x01\x02", 28) == {"data": {"type": "bytes", "value": "0102"}}
    long_query = b"INSERT INTO t VALUES " + b"(1)," * 100
    # the length byte is the statement length mod 256 (the servers ignore it)
    assert run(rows_query.decode, bytes([len(long_query) & 0xFF]) + long_query, 29) == {
        "length": len(long_query) & 0xFF, "rows_query": long_query.decode()}


# -- robustness ----------------------------------------------------------------------------------

DECODERS = [(query.decode, 2), (query.decode_compressed, 165), (session_vars.decode_intvar, 5),
            (session_vars.decode_rand, 13), (session_vars.decode_user_var, 14), (xid.decode, 16),
            (load.decode_load, 6), (load.decode_new_load, 12), (load.decode_create_file, 8),
            (load.decode_append_block, 9), (load.decode_exec_load, 10), (load.decode_delete_file, 11),
            (load.decode_begin_load_query, 17), (load.decode_execute_load_query, 18),
            (incident.decode, 26), (heartbeat.decode_v1, 27), (heartbeat.decode_v2, 41),
            (ignorable.decode, 28), (rows_query.decode, 29)]
CONTEXTS = [MYSQL, MARIADB, DecodeContext(format=old_format(1)), DecodeContext(format=old_format(3))]
SEEDS = [query_body(b"SELECT 1", status=FULL_MARIADB_STATUS), _elq(9, 20, 1),
         LOAD_FIXED + b"\x01,\x00\x01\n\x00\x00" + LOAD_TAIL + b"f\0blk",
         user_var_body(b"d", 4, b"\x05\x02\x80\x7b\x2d"), b"\x01\x05hello\x02\x01\x07\x00"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_and_mutated_bodies_raise_only_binlog_errors(data):
    decoder, type_code = data.draw(st.sampled_from(DECODERS))
    ctx = data.draw(st.sampled_from(CONTEXTS))
    if data.draw(st.booleans()):
        body = data.draw(st.binary(max_size=120))
    else:
        body = bytearray(data.draw(st.sampled_from(SEEDS)))
        for _ in range(data.draw(st.integers(1, 4))):
            if body:
                body[data.draw(st.integers(0, len(body) - 1))] = data.draw(st.integers(0, 255))
        body = bytes(body[:data.draw(st.integers(0, len(body)))])
    try:
        run(decoder, body, type_code, ctx, log_pos=data.draw(st.sampled_from([0, 3, 1000])))
    except BinlogError as e:
        assert ORIGIN <= e.offset <= ORIGIN + len(body)


def _encode_decimal(digits: str, negative: bool, precision: int, scale: int) -> bytes:
    """An independent encoder of the binary DECIMAL format (MySQL's decimal2bin, as documented):
    digits is the zero-padded absolute value, precision digits long."""
    intg = precision - scale
    int_part, frac_part = digits[:intg], digits[intg:]
    sizes = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
    out = bytearray()
    lead = intg % 9
    groups = ([int_part[:lead]] if lead else []) + [int_part[i:i + 9] for i in range(lead, intg, 9)]
    for g in groups:
        out += int(g).to_bytes(sizes[len(g)], "big")
    for i in range(0, scale, 9):
        g = frac_part[i:i + 9]
        out += int(g).to_bytes(sizes[len(g)], "big")
    out[0] ^= 0x80
    return bytes(x ^ 0xFF for x in out) if negative else bytes(out)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_decimal_user_var_round_trips(data):
    precision = data.draw(st.integers(1, 65))
    scale = data.draw(st.integers(0, min(precision, 30)))
    digits = data.draw(st.text(alphabet="0123456789", min_size=precision, max_size=precision))
    negative = data.draw(st.booleans()) and digits.strip("0") != ""
    raw = bytes([precision, scale]) + _encode_decimal(digits, negative, precision, scale)
    got = run(session_vars.decode_user_var, user_var_body(b"d", 4, raw), 14)["value"]
    whole = digits[:precision - scale].lstrip("0") or "0"
    expected = ("-" if negative else "") + whole + ("." + digits[precision - scale:] if scale else "")
    assert got == {"type": "decimal", "value": expected}


# -- bytes no server writes, kept so that the encoder writes the event back (native-fuzz finds) --

FINDINGS = Path(__file__).resolve().parents[1] / "corpus" / "findings"


def _finding_events(case: str) -> tuple[list[dict], BinlogError | None]:
    events, error = [], None
    try:
        for e in decode_file(FINDINGS / case / "binlog"):
            events.append(e.to_json())
    except BinlogError as e:
        error = e
    return events, error


def test_a_user_var_keeps_the_bytes_after_its_flags():
    events, _ = _finding_events("python-mysql-replication-file/crash-f7b88e4e92df")
    assert events[0]["body"]["flags"] == 0x65
    assert events[0]["body"]["trailing"]["value"].startswith("7374004352454154")  # "st\0CREAT"


def test_a_table_map_keeps_null_bitmap_and_signedness_padding():
    events, _ = _finding_events("python-mysql-replication-file/crash-31746388cd27")
    assert events[1]["body"]["null_bitmap"] == "00" and events[1]["body"]["null_bitmap_padding"] == 2
    events, _ = _finding_events("python-mysql-replication-file/crash-f9d41b63f06e")
    signedness = events[1]["body"]["optional_metadata"][0]
    assert signedness["value"] == [False, False, False] and len(signedness["padding"]) == 11 * 8 - 3


def test_a_format_description_keeps_bytes_after_its_version_and_names_itself_in_errors():
    events, _ = _finding_events("python-mysql-replication-file/crash-310a90060f9e")
    assert events[0]["body"]["server_version_tail"]["value"].rstrip("0").endswith("8")
    _, error = _finding_events("go-mysql-file/crash-00db0616c6aa")
    assert isinstance(error, BadEventBody) and error.offset == 121 and error.event_offset == 4
