"""MariaDB-only events: Annotate_rows (160), Binlog_checkpoint (161), Gtid (162), Gtid_list (163),
Start_encryption (164).

The real binlogs (MariaDB 10.5 and 11.8) are checked against what mariadb-binlog -vvv prints for
them: values read from its output once and written here, and its live output (the pinned image's
tool, tests/pinned_tools.py) for every event of every file.
"""
from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.decoder import decode_file
from oracle.errors import BadEventBody, BinlogError, LengthPastEnd, TruncatedEvent
from oracle.events import (mariadb_annotate_rows, mariadb_binlog_checkpoint, mariadb_gtid,
                           mariadb_gtid_list, mariadb_start_encryption)
from oracle.values import plain

from .event_bytes import MARIADB_POC, decode_body, external, first_format
from .pinned_tools import external_mariadb_binlog

MARIADB_10_5 = external("mariadb-bin.000001")
MARIADB_11_8 = sorted(MARIADB_POC.glob("mariadb-binlog__binlogs__*")) if MARIADB_POC.exists() else []
pytestmark = pytest.mark.skipif(not MARIADB_10_5.exists(), reason="../shared/external-binlogs is not there")


@pytest.fixture(scope="module")
def fmt118():
    return first_format(MARIADB_11_8[0])


def bodies(path: Path, type_code: int) -> list:
    return [e for e in decode_file(path) if e.type_code == type_code]


# -- values read from mariadb-binlog -vvv ---------------------------------------------------------

def test_mariadb_10_5_file():
    evs = list(decode_file(MARIADB_10_5))
    by_type = {}
    for e in evs:
        by_type.setdefault(e.type_code, []).append(e)
    assert by_type[163][0].position == 256 and by_type[163][0].body["count"] == 0
    assert by_type[161][0].body == {"binlog_file_len": 18, "binlog_file_name": "mariadb-bin.000001"}
    assert [(e.position, e.body["gtid"]) for e in by_type[162]] == [(330, "0-1-1"), (702, "0-1-2")]
    first = by_type[162][0].body
    assert first["flags2_names"] == ["FL_TRANSACTIONAL", "FL_ALLOW_PARALLEL"] and first["flags_extra"] == 0
    query = "insert into outbox (topic, event_type, event) values ('foo', 'JSON', '{\"foo\":1}')"
    assert [(e.position, e.body["query"]) for e in by_type[160]] == [(372, query), (744, query)]


@pytest.mark.skipif(not MARIADB_11_8, reason="mariadb-operator binlogs are not there")
def test_mariadb_11_8_gtids_and_thread_ids():
    path = MARIADB_POC / "mariadb-binlog__binlogs__domain_id_1__mariadb-repl-bin.000002"
    gtids = bodies(path, 162)
    assert [g.body["gtid"] for g in gtids] == [f"1-10-{n}" for n in range(1, 13)]
    assert gtids[0].position == 335
    assert gtids[0].body["flags2_names"] == ["FL_STANDALONE", "FL_ALLOW_PARALLEL", "FL_DDL"]
    # mariadb-binlog prints "Query thread_id=6" for the DDL that follows GTID 1-10-1.
    assert (gtids[0].body["flags_extra_names"], gtids[0].body["thread_id"]) == (["FL_EXTRA_THREAD_ID"], 6)
    listed = bodies(MARIADB_POC / "mariadb-binlog__binlogs__domain_id_0__mariadb-repl-bin.000004", 163)[0]
    assert listed.body["list"] == [{"domain_id": 0, "server_id": 10, "seq_no": 262175}]
    assert listed.body["gtid_list"] == "0-10-262175"


# -- live comparison with mariadb-binlog ----------------------------------------------------------

_HEADER = re.compile(r"^#\d{6} +\d+:\d\d:\d\d server id (\d+) +end_log_pos (\d+) (?:CRC32 0x[0-9a-f]{8} )?\t(.*)$")


def mariadb_binlog_facts(path: Path) -> dict[int, tuple[str, str]]:
    """end_log_pos -> (kind, printed value) for the events this test compares."""
    out = external_mariadb_binlog(path, ("-vvv", "--base64-output=decode-rows")).stdout.decode(errors="replace")
    facts: dict[int, tuple[str, str]] = {}
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = _HEADER.match(line)
        if not m:
            continue
        end, what = int(m[2]), m[3]
        if what.startswith("GTID "):
            facts[end] = ("gtid", what[5:])
        elif what.startswith("Gtid list ["):
            text = what[len("Gtid list ["):]
            j = i
            while not text.endswith("]"):
                j += 1
                text += "\n" + lines[j]
            facts[end] = ("gtid_list", text[:-1])
        elif what.startswith("Binlog checkpoint "):
            facts[end] = ("checkpoint", what[len("Binlog checkpoint "):])
        elif what.startswith("Annotate_rows:"):
            query = []
            for follow in lines[i + 1:]:
                if not follow.startswith("#Q> "):
                    break
                query.append(follow[4:])
            facts[end] = ("annotate", "\n".join(query))
        elif what.startswith("Query\tthread_id="):
            facts[end] = ("query_thread", what.split("=", 1)[1].split("\t", 1)[0])
    return facts


def _mariadb_files():
    return [MARIADB_10_5, *MARIADB_11_8] if MARIADB_10_5.exists() else []


@pytest.mark.parametrize("path", _mariadb_files(), ids=lambda p: p.name)
def test_matches_mariadb_binlog(path):
    facts = mariadb_binlog_facts(path)
    assert facts, "mariadb-binlog printed nothing we compare"
    compared = 0
    evs = list(decode_file(path))
    for i, e in enumerate(evs):
        kind, printed = facts.get(e.next_position, (None, None))
        b = e.body
        if e.type_code == 162:
            suffix = "trans" if not b["flags2"] & 0x01 else ("ddl" if b["flags2"] & 0x20 else "")
            assert kind == "gtid" and printed.split(" ")[0] == b["gtid"], e.position
            if not b["flags2"] & 0xC0:  # XA groups print "trans" whatever FL_STANDALONE says
                assert printed.split(" ")[1:2] == ([suffix] if suffix else []), e.position
            if "thread_id" in b and i + 1 < len(evs) and evs[i + 1].type_code == 2:
                assert facts[evs[i + 1].next_position] == ("query_thread", str(b["thread_id"]))
        elif e.type_code == 163:
            assert (kind, printed) == ("gtid_list", b["gtid_list"])
        elif e.type_code == 161:
            assert (kind, printed) == ("checkpoint", b["binlog_file_name"])
        elif e.type_code == 160:
            assert (kind, printed) == ("annotate", b["query"])
        else:
            continue
        compared += 1
    assert compared == sum(1 for k, _ in facts.values() if k != "query_thread")


# -- hand-built -----------------------------------------------------------------------------------

def _gtid(seq_no=5, domain=2, flags2=0, tail=b"\0" * 6):
    return struct.pack("<QIB", seq_no, domain, flags2) + tail


def test_gtid_group_commit_xa_and_extra_flags(fmt118):
    xid = struct.pack("<IBB", 1, 3, 2) + b"abc" + b"\x01\x02"
    extra = bytes([0x01 | 0x04 | 0x10, 3]) + struct.pack("<QI", 2**63 + 1, 4242)
    body = decode_body(mariadb_gtid.decode, _gtid(flags2=0x02 | 0x40, tail=struct.pack("<Q", 99) + xid + extra),
                       fmt118, 162, server_id=7)
    assert body["gtid"] == "2-7-5" and body["commit_id"] == 99
    assert body["flags2_names"] == ["FL_GROUP_COMMIT_ID", "FL_PREPARED_XA"]
    assert body["xid"] == "X'616263',X'0102',1"
    assert body["flags_extra_names"] == ["FL_EXTRA_MULTI_ENGINE_E1", "FL_COMMIT_ALTER_E1", "FL_EXTRA_THREAD_ID"]
    assert (body["extra_engines"], plain(body["sa_seq_no"]), body["thread_id"]) == (3, 2**63 + 1, 4242)


@pytest.mark.parametrize("raw, error", [
    (_gtid(flags2=0x02, tail=b"\0" * 6), TruncatedEvent),  # commit_id announced, 6 bytes there
    (_gtid(flags2=0x80, tail=struct.pack("<IBB", 1, 65, 0) + b"x" * 65), BadEventBody),
    (_gtid(flags2=0x80, tail=struct.pack("<IBB", 1, 4, 0) + b"ab"), LengthPastEnd),
    (_gtid(tail=bytes([0x04, 1, 2])), TruncatedEvent),  # sa_seq_no announced, 2 bytes there
    (_gtid(tail=b"")[:12], TruncatedEvent),
])
def test_gtid_errors(fmt118, raw, error):
    with pytest.raises(error):
        decode_body(mariadb_gtid.decode, raw, fmt118, 162)


def test_gtid_post_header_below_19_is_invalid(fmt118):
    lengths = list(fmt118.post_header_lengths)
    lengths[162 - 1] = 13
    short = type(fmt118)(fmt118.binlog_version, fmt118.server_version, fmt118.create_timestamp,
                         fmt118.header_length, tuple(lengths), fmt118.checksum_alg)
    with pytest.raises(BadEventBody, match="below 19"):
        decode_body(mariadb_gtid.decode, _gtid(), short, 162)


def test_gtid_list(fmt118):
    raw = struct.pack("<I", 2 | 1 << 29) + struct.pack("<IIQ", 1, 10, 7) + struct.pack("<IIQ", 0, 3, 9)
    body = decode_body(mariadb_gtid_list.decode, raw, fmt118, 163)
    assert body["count"] == 2 and body["gl_flags_names"] == ["FLAG_IGN_GTIDS"]
    assert body["gtid_list"] == "0-3-9,\n# 1-10-7"
    with pytest.raises(TruncatedEvent):
        decode_body(mariadb_gtid_list.decode, struct.pack("<I", (1 << 28) - 1), fmt118, 163)


def test_checkpoint_start_encryption_annotate(fmt118):
    assert decode_body(mariadb_binlog_checkpoint.decode, struct.pack("<I", 3) + b"b.1", fmt118, 161) == {
        "binlog_file_len": 3, "binlog_file_name": "b.1"}
    with pytest.raises(LengthPastEnd):
        decode_body(mariadb_binlog_checkpoint.decode, struct.pack("<I", 30) + b"b.1", fmt118, 161)
    enc = decode_body(mariadb_start_encryption.decode, b"\x01" + struct.pack("<I", 2) + bytes(range(12)), fmt118, 164)
    assert enc == {"crypto_scheme": 1, "key_version": 2, "nonce": {"type": "bytes", "value": bytes(range(12)).hex()}}
    with pytest.raises(BadEventBody):
        decode_body(mariadb_start_encryption.decode, b"\x01" * 16, fmt118, 164)
    assert decode_body(mariadb_annotate_rows.decode, b"\xff\xfe", fmt118, 160) == {
        "query": {"type": "bytes", "value": "fffe"}}


DECODERS = [(mariadb_gtid.decode, 162), (mariadb_gtid_list.decode, 163), (mariadb_binlog_checkpoint.decode, 161),
            (mariadb_annotate_rows.decode, 160), (mariadb_start_encryption.decode, 164)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(DECODERS), st.binary(max_size=80), st.integers(0, 255))
def test_random_bodies_raise_only_binlog_errors(fmt118, decoder_type, raw, flags2):
    decoder, type_code = decoder_type
    if type_code == 162 and len(raw) > 12:
        raw = raw[:12] + bytes([flags2]) + raw[13:]  # reach the flag-dependent fields often
    try:
        json.dumps(decode_body(decoder, raw, fmt118, type_code))
    except BinlogError:
        pass
