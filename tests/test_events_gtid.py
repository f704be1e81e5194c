"""MySQL GTID-family events: Gtid / Anonymous_gtid / Gtid_tagged, Previous_gtids,
Transaction_context, View_change, XA_prepare and Transaction_payload.

Real binlogs are checked against facts that do not come from the decoder: the transaction_length
a GTID event states must equal the bytes of its transaction in the file, server versions match the
Format_description's, the inner events of a compressed payload add up to its uncompressed_size,
and the GTIDs agree with the Previous_gtids sets of the same files.
"""
from __future__ import annotations

import json
import struct

import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.checksum import event_crc32
from oracle.decoder import decode_bytes, decode_file
from oracle.errors import (BadEventBody, BinlogError, DecompressionError, LengthPastEnd,
                           TruncatedEvent)
from oracle.events import gtid, previous_gtids, transaction_context, transaction_payload
from oracle.events import view_change, xa_prepare
from oracle.events.mysql_serialization import varlen_signed as read_signed
from oracle.events.mysql_serialization import varlen_unsigned as read_unsigned
from oracle.fde import version_tuple
from oracle.reader import Reader
from oracle.values import plain

from .event_bytes import decode_body, external, first_format, message, varlen, varlen_signed
from .external import manifest

pytestmark = pytest.mark.skipif(not external("transaction_compression.000001").exists(),
                                reason="../shared/external-binlogs is not there")

GTID_TYPES = (33, 34, 42)
UUID_A = bytes.fromhex("55778904029911f1b1b84ef0c4956feb")
UUID_A_TEXT = "55778904-0299-11f1-b1b8-4ef0c4956feb"


def events(name: str):
    return list(decode_file(external(name)))


@pytest.fixture(scope="module")
def fmt80():
    return first_format(external("transaction_compression.000001"))


# -- real binlogs -------------------------------------------------------------------------------

def test_mysql56_gtids_stop_after_the_gno():
    evs = [e for e in events("binlog_transaction_with_GTID.000001") if e.type_code == 33]
    assert [(e.position, e.body["gtid"]) for e in evs] == [
        (151, "006c2cf2-b1ea-11e4-9057-8c705a3d3e78:1"),
        (297, "006c2cf2-b1ea-11e4-9057-8c705a3d3e78:2"),
        (603, "006c2cf2-b1ea-11e4-9057-8c705a3d3e78:3"),
    ]
    assert all(e.body["may_have_sbr_stmts"] and "lt_type" not in e.body for e in evs)


def test_tagged_gtid_and_tagged_previous_gtids():
    evs = events("binlog_transaction_with_GTID_TAG.000001")
    prev = next(e for e in evs if e.type_code == 35).body
    assert prev["format"] == "tagged"
    assert prev["gtid_set"] == f"{UUID_A_TEXT}:1-13:mytag:1-2"
    assert [(s["tag"], s["intervals"]) for s in prev["sids"]] == [
        ("", [{"start": 1, "end": 14}]), ("mytag", [{"start": 1, "end": 3}])]
    tagged = next(e for e in evs if e.type_code == 42)
    assert tagged.body == {
        "gtid_flags": 0, "may_have_sbr_stmts": False, "sid": UUID_A_TEXT, "tag": "mytag", "gno": 3,
        "gtid": f"{UUID_A_TEXT}:mytag:3", "last_committed": 0, "sequence_number": 1,
        "immediate_commit_timestamp": 1770368687207196, "original_commit_timestamp": 1770368687207196,
        "transaction_length": 296, "immediate_server_version": 90600, "original_server_version": 90600,
    }


def test_previous_gtids_untagged():
    prev = next(e for e in events("binlog_transaction_previous_GTID_no_tag.000001") if e.type_code == 35)
    assert prev.body == {"format": "untagged", "n_sids": 1, "gtid_set": "b9b88c66-0755-11f1-9899-4a9da94c4d71:1-2",
                         "sids": [{"uuid": "b9b88c66-0755-11f1-9899-4a9da94c4d71", "n_intervals": 1,
                                   "intervals": [{"start": 1, "end": 3}]}]}


def _mysql_files():
    return [b for b in manifest() if b.flavor == "mysql" and b.path.exists()
            and b.mysqlbinlog_result.startswith("OK") and "truncated" not in b.file]


@pytest.mark.parametrize("b", _mysql_files(), ids=lambda b: b.name)
def test_transaction_length_is_the_bytes_of_the_transaction(b):
    """transaction_length covers the GTID event through the commit: the file says how long that is."""
    evs = []
    try:
        for e in decode_file(b.path):
            evs.append(e)
    except BinlogError:
        pass  # a body another decoder rejects: check the events before it
    boundaries = {33, 34, 42, 35, 4, 3}
    checked = 0
    for i, e in enumerate(evs):
        if e.type_code not in GTID_TYPES or "transaction_length" not in e.body:
            continue
        end = next((n.position for n in evs[i + 1:] if n.type_code in boundaries), None)
        end = end if end is not None else evs[-1].position + evs[-1].event_size
        assert plain(e.body["transaction_length"]) == end - e.position, (b.name, e.position)
        checked += 1
    if b.name.endswith(("GTID_TAG.000001", "compression.000001", "mysql_type_bit.000001")):
        assert checked
    fde_version = version_tuple(b.server_version)
    for e in evs:
        if "immediate_server_version" in e.body and "relay" not in b.file:
            v = e.body["immediate_server_version"]
            assert (v // 10000, v // 100 % 100, v % 100) == fde_version
        if "immediate_commit_timestamp" in e.body:
            assert abs(plain(e.body["immediate_commit_timestamp"]) / 1e6 - e.timestamp) < 3600


def test_anonymous_gtids_carry_the_logical_clock():
    evs = [e for e in events("binlog_transaction_with_anonymous_GTID.000001") if e.type_code == 34]
    assert [e.body["gtid"] for e in evs] == ["ANONYMOUS", "ANONYMOUS"]
    assert [(e.body["last_committed"], e.body["sequence_number"]) for e in evs] == [(0, 1), (1, 2)]


def test_compressed_transaction_and_its_inner_events():
    evs = events("transaction_compression.000001")
    gtid_event = next(e for e in evs if e.type_code == 34)
    payload = next(e for e in evs if e.type_code == 40)
    body = payload.body
    assert (body["payload_size"], body["compression_name"], body["uncompressed_size"]) == (124, "ZSTD", 179)
    inner = body["events"]
    assert [e["type"] for e in inner] == ["QUERY_EVENT", "TABLE_MAP_EVENT", "WRITE_ROWS_EVENT", "XID_EVENT"]
    assert sum(e["event_size"] for e in inner) == 179
    end = payload.position + payload.event_size
    assert {(e["position"], e["next_position"]) for e in inner} == {(end, payload.next_position)} == {(431, 431)}
    assert inner[0]["body"]["query"] == "BEGIN"
    assert plain(gtid_event.body["transaction_length"]) == gtid_event.event_size + payload.event_size
    json.dumps(body)


def _replace_event(data: bytes, position: int, new_body: bytes) -> bytes:
    """data with the event at position given a new body (header size fixed, CRC32 recomputed)."""
    size = struct.unpack_from("<I", data, position + 9)[0]
    header = bytearray(data[position:position + 19])
    struct.pack_into("<I", header, 9, 19 + len(new_body) + 4)
    event = bytes(header) + new_body
    crc = event_crc32(event + bytes(4))  # computed over all but the last 4 bytes
    return data[:position] + event + struct.pack("<I", crc) + data[position + size:]


def _payload_event(data: bytes) -> tuple[int, bytes]:
    """Position and decompressed inner events of the file's Transaction_payload."""
    payload = next(e for e in decode_bytes(data) if e.type_code == 40)
    body = data[payload.position + 19:payload.position + payload.event_size - 4]
    return payload.position, zstandard.ZstdDecompressor().decompress(body[10:], max_output_size=1 << 20)


def _tlv(*fields: tuple[int, int]) -> bytes:
    return b"".join(bytes([t, 1, v]) if v < 251 else bytes([t, 3, 252]) + v.to_bytes(2, "little")
                    for t, v in fields) + b"\x00"


def test_payload_stored_without_compression():
    data = external("transaction_compression.000001").read_bytes()
    position, inner = _payload_event(data)
    plain_body = _tlv((2, 255), (1, len(inner))) + inner
    evs = list(decode_bytes(_replace_event(data, position, plain_body)))
    payload = next(e for e in evs if e.type_code == 40)
    assert payload.body["compression_name"] == "NONE" and "uncompressed_size" not in payload.body
    assert [e["type_code"] for e in payload.body["events"]] == [2, 19, 30, 16]


@pytest.mark.parametrize("body, error", [
    (_tlv((2, 255), (1, 4))[:-1], TruncatedEvent),  # no end mark
    (_tlv((2, 7), (1, 0)), BadEventBody),  # compression type 7
    (_tlv((1, 0)), BadEventBody),  # no compression type
    (_tlv((2, 255), (1, 200)), LengthPastEnd),  # payload_size past the event
    (_tlv((2, 0), (3, 100), (1, 5)) + b"abcde", DecompressionError),  # not zstd
    (_tlv((2, 0), (1, 0)), DecompressionError),  # zstd without uncompressed_size
])
def test_payload_header_errors(fmt80, body, error):
    with pytest.raises(error):
        decode_body(transaction_payload.decode, body, fmt80, 40)


def test_payload_unknown_header_field_is_skipped_and_size_mismatch_rejected(fmt80):
    inner = b""
    body = bytes([9, 2, 0xAA, 0xBB]) + _tlv((2, 255), (1, 0)) + inner
    assert decode_body(transaction_payload.decode, body, fmt80, 40)["events"] == []
    frame = zstandard.ZstdCompressor().compress(b"x" * 50)
    with pytest.raises(DecompressionError):
        decode_body(transaction_payload.decode, _tlv((2, 0), (3, 49), (1, len(frame))) + frame, fmt80, 40)


def test_payload_inside_payload_is_rejected():
    data = external("transaction_compression.000001").read_bytes()
    position, inner = _payload_event(data)
    inner_payload = bytearray(data[position:position + 19])  # a header for the inner event
    inner_body = _tlv((2, 255), (1, 0))
    struct.pack_into("<I", inner_payload, 9, 19 + len(inner_body))
    nested = bytes(inner_payload) + inner_body
    outer = _tlv((2, 255), (1, len(nested))) + nested
    with pytest.raises(BadEventBody, match="inside another"):
        list(decode_bytes(_replace_event(data, position, outer)))


# -- hand-built GTID events ---------------------------------------------------------------------

def _gtid_body(gno=7, flags=1, sid=UUID_A, tail=b""):
    return bytes([flags]) + sid + struct.pack("<q", gno) + tail


def _clock(last=5, seq=6):
    return b"\x02" + struct.pack("<qq", last, seq)


def test_gtid_with_every_field_and_original_values(fmt80):
    ts_imm, ts_orig = 1_700_000_000_123_456, 1_600_000_000_000_001
    tail = (_clock() + (ts_imm | 1 << 55).to_bytes(7, "little") + ts_orig.to_bytes(7, "little")
            + b"\xfc\x10\x27" + struct.pack("<II", 80032 | 1 << 31, 50744) + struct.pack("<Q", 2**63 + 5))
    body = decode_body(gtid.decode, _gtid_body(tail=tail), fmt80, 33)
    assert body["gtid"] == f"{UUID_A_TEXT}:7"
    assert (body["immediate_commit_timestamp"], body["original_commit_timestamp"]) == (ts_imm, ts_orig)
    assert body["transaction_length"] == 10000
    assert (body["immediate_server_version"], body["original_server_version"]) == (80032, 50744)
    assert plain(body["commit_group_ticket"]) == 2**63 + 5
    assert body["commit_group_ticket"] == {"type": "int", "value": str(2**63 + 5)}


def test_gtid_fields_stop_where_the_event_stops(fmt80):
    short = decode_body(gtid.decode, _gtid_body(tail=_clock() + b"\x01\x02\x03"), fmt80, 33)
    assert "immediate_commit_timestamp" not in short and short["sequence_number"] == 6
    old = decode_body(gtid.decode, _gtid_body(tail=b"\x01" + b"\x00" * 16), fmt80, 33)
    assert old["lt_type"] == 1 and "last_committed" not in old  # 5.7.4 and earlier: ignored
    ts = (123).to_bytes(7, "little")
    no_version = decode_body(gtid.decode, _gtid_body(tail=_clock() + ts + b"\x05"), fmt80, 33)
    assert no_version["original_commit_timestamp"] == 123 and no_version["transaction_length"] == 5
    assert "immediate_server_version" not in no_version


@pytest.mark.parametrize("type_code, gno", [(33, 0), (33, -1), (33, 2**63 - 1), (34, 1)])
def test_invalid_gno(fmt80, type_code, gno):
    with pytest.raises(BadEventBody, match="GNO"):
        decode_body(gtid.decode, _gtid_body(gno=gno), fmt80, type_code)


def test_original_server_version_announced_but_missing(fmt80):
    tail = _clock() + (1).to_bytes(7, "little") + b"\x01" + struct.pack("<I", 80032 | 1 << 31)
    with pytest.raises(TruncatedEvent):
        decode_body(gtid.decode, _gtid_body(tail=tail), fmt80, 33)


def _tagged_fields(over=None):
    fields = {0: varlen(1), 1: b"".join(varlen(b) for b in UUID_A), 2: varlen_signed(42),
              3: varlen(3) + b"abc", 4: varlen_signed(-1), 5: varlen_signed(9), 6: varlen(2**60),
              8: varlen(300), 9: varlen(90700)}
    fields.update(over or {})
    return {k: v for k, v in fields.items() if v is not None}


def test_tagged_defaults_for_absent_fields(fmt80):
    body = decode_body(gtid.decode_tagged, message(_tagged_fields()), fmt80, 42)
    assert body["gtid"] == f"{UUID_A_TEXT}:abc:42"
    assert body["last_committed"] == -1
    assert plain(body["original_commit_timestamp"]) == 2**60
    assert body["original_server_version"] == 90700 and "commit_group_ticket" not in body


def test_tagged_skips_fields_of_a_newer_server(fmt80):
    fields = _tagged_fields()
    fields[12] = varlen(77)  # unknown, ignorable
    body = decode_body(gtid.decode_tagged, message(fields, last_required=10), fmt80, 42)
    assert body["transaction_length"] == 300
    with pytest.raises(BadEventBody, match="required but unknown"):
        decode_body(gtid.decode_tagged, message(fields, last_required=13), fmt80, 42)
    with pytest.raises(BadEventBody, match="format version"):
        decode_body(gtid.decode_tagged, message(fields, version=2), fmt80, 42)


def test_tagged_field_limits(fmt80):
    with pytest.raises(BadEventBody, match="exceeds the 32"):
        decode_body(gtid.decode_tagged, message(_tagged_fields({3: varlen(33) + b"a" * 33})), fmt80, 42)
    with pytest.raises(BadEventBody, match="does not fit in 8 bits"):
        decode_body(gtid.decode_tagged, message(_tagged_fields({0: varlen(256)})), fmt80, 42)
    with pytest.raises(BadEventBody, match="does not fit in 32 bits"):
        decode_body(gtid.decode_tagged, message(_tagged_fields({9: varlen(2**32)})), fmt80, 42)


@given(st.integers(0, 2**64 - 1))
def test_varlen_unsigned_round_trip(v):
    r = Reader(varlen(v))
    assert read_unsigned(r, "v") == v and r.remaining() == 0


@given(st.integers(-2**63, 2**63 - 1))
def test_varlen_signed_round_trip(v):
    r = Reader(varlen_signed(v))
    assert read_signed(r, "v") == v and r.remaining() == 0


def test_varlen_known_encodings():
    # The readme's examples: 65535 unsigned is 0xfb 0xff 0x07 (little-endian of 00000111 11111111 11111011).
    assert varlen(65535) == bytes([0xFB, 0xFF, 0x07])
    assert varlen_signed(-65535) == bytes([0xEB, 0xFF, 0x0F])
    assert read_unsigned(Reader(bytes([0xFB, 0xFF, 0x07])), "v") == 65535


# -- hand-built Previous_gtids ----------------------------------------------------------------

UUID_B = bytes.fromhex("00000000000000000000000000000001")


def _sid(uuid, intervals, tag=None):
    out = uuid + (varlen(len(tag)) + tag if tag is not None else b"") + struct.pack("<Q", len(intervals))
    return out + b"".join(struct.pack("<qq", s, e) for s, e in intervals)


def _prev(sids, tagged=False):
    n = len(sids)
    head = struct.pack("<Q", (1 << 56) | (n << 8) | 1) if tagged else struct.pack("<Q", n)
    return head + b"".join(sids)


def test_gtid_set_text_sorts_merges_and_groups(fmt80):
    sids = [_sid(UUID_A, [(5, 6)], b"Zed"), _sid(UUID_A, [(1, 3), (7, 9)], b""),
            _sid(UUID_B, [(1, 2)], b""), _sid(UUID_A, [(3, 4)], b""), _sid(UUID_A, [(1, 2)], b"  abc ")]
    body = decode_body(previous_gtids.decode, _prev(sids, tagged=True), fmt80, 35)
    assert [s["tag"] for s in body["sids"]] == ["zed", "", "", "", "abc"]
    assert body["gtid_set"] == (
        "00000000-0000-0000-0000-000000000001:1,\n"
        f"{UUID_A_TEXT}:1-3:7-8:abc:1:zed:5")


@pytest.mark.parametrize("raw, error", [
    (_prev([_sid(UUID_A, [(3, 3)])]), BadEventBody),  # empty interval
    (_prev([_sid(UUID_A, [(1, 5), (5, 7)])]), BadEventBody),  # not strictly after the last end
    (_prev([_sid(UUID_A, [(0, 2)])]), BadEventBody),  # GNO 0
    (_prev([_sid(UUID_A, [(1, 2)], b"1abc")], tagged=True), BadEventBody),  # tag starts with a digit
    (_prev([_sid(UUID_A, [(1, 2)], b"a-b")], tagged=True), BadEventBody),
    (struct.pack("<Q", 2 << 56), BadEventBody),  # unknown format
    (_prev([_sid(UUID_A, [(1, 2)])]) + b"\x00", BadEventBody),  # trailing byte
    (struct.pack("<Q", 1 << 40), TruncatedEvent),  # a trillion sids in 8 bytes
    (_prev([_sid(UUID_A, [(1, 2)])])[:-1], TruncatedEvent),
    (b"\x00" * 7, TruncatedEvent),
])
def test_previous_gtids_errors(fmt80, raw, error):
    with pytest.raises(error):
        decode_body(previous_gtids.decode, raw, fmt80, 35)


# -- Transaction_context, View_change, XA_prepare -------------------------------------------

def test_transaction_context(fmt80):
    uuid = b"8a94f357-aab4-11df-86ab-c80aa9429562"
    snapshot = b"\x01\x02\x03"
    items = [b"hash1", b"h\x00ignored"]
    raw = (struct.pack("<BIBIII", len(uuid), 99, 1, len(snapshot), len(items), 0) + uuid + snapshot
           + b"".join(struct.pack("<H", len(i)) + i for i in items))
    body = decode_body(transaction_context.decode, raw, fmt80, 36)
    assert body["server_uuid"] == uuid.decode() and body["thread_id"] == 99 and body["gtid_specified"]
    assert body["encoded_snapshot_version"] == {"type": "bytes", "value": "010203"}
    assert body["write_set"] == ["hash1", "h"] and body["read_set"] == []
    endless = struct.pack("<BIBIII", 0, 1, 0, 0, 2**32 - 1, 0) + b"\x01\x00a"  # 4 billion items, 1 there
    with pytest.raises(TruncatedEvent):
        decode_body(transaction_context.decode, endless, fmt80, 36)


def test_view_change(fmt80):
    entries = [(b"b", b"2"), (b"a", b"1"), (b"b", b"3")]
    raw = (b"15000000000000000:1".ljust(40, b"\0") + struct.pack("<QI", 7, len(entries))
           + b"".join(struct.pack("<H", len(k)) + k + struct.pack("<I", len(v)) + v for k, v in entries))
    body = decode_body(view_change.decode, raw, fmt80, 37)
    assert body["view_id"] == "15000000000000000:1" and body["seq_number"] == 7
    assert body["certification_info"] == [{"key": "a", "value": "1"}, {"key": "b", "value": "3"}]
    with pytest.raises(BadEventBody, match="empty view_id"):
        decode_body(view_change.decode, b"\0" * 52, fmt80, 37)


def _xa(one_phase, fmt_id, gtrid, bqual):
    return struct.pack("<BIII", one_phase, fmt_id, len(gtrid), len(bqual)) + gtrid + bqual


def test_xa_prepare_renders_the_xid_as_the_server(fmt80):
    body = decode_body(xa_prepare.decode, _xa(0, 1, b"trx1", b"\x00\xff"), fmt80, 38)
    assert body["xid"] == "X'74727831',X'00ff',1" and body["one_phase"] is False
    assert decode_body(xa_prepare.decode, _xa(2, 0, b"", b""), fmt80, 38)["xid"] == "X'',X'',0"
    with pytest.raises(BadEventBody, match="Invalid XID"):
        decode_body(xa_prepare.decode, _xa(0, 1, b"g" * 65, b""), fmt80, 38)
    with pytest.raises(LengthPastEnd):
        decode_body(xa_prepare.decode, _xa(0, 1, b"abc", b"d")[:-1], fmt80, 38)


# -- robustness -------------------------------------------------------------------------------

DECODERS = [(gtid.decode, 33), (gtid.decode, 34), (gtid.decode_tagged, 42), (previous_gtids.decode, 35),
            (transaction_context.decode, 36), (view_change.decode, 37), (xa_prepare.decode, 38),
            (transaction_payload.decode, 40)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(DECODERS), st.binary(max_size=120))
def test_random_bodies_raise_only_binlog_errors(fmt80, decoder_type, raw):
    decoder, type_code = decoder_type
    try:
        json.dumps(decode_body(decoder, raw, fmt80, type_code))
    except BinlogError:
        pass


SEEDS = [_gtid_body(tail=_clock() + (1 | 1 << 55).to_bytes(7, "little") + b"\x00" * 7 + b"\x01"
                    + struct.pack("<I", 1 << 31 | 5) + b"\x00" * 12),
         message(_tagged_fields()),
         _prev([_sid(UUID_A, [(1, 3)], b"ab"), _sid(UUID_B, [(2, 9)], b"")], tagged=True),
         _xa(1, 3, b"abc", b"de")]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(list(zip(SEEDS, [33, 42, 35, 38]))), st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)), max_size=4))
def test_mutated_bodies_raise_only_binlog_errors(fmt80, seed, flips):
    raw, type_code = seed
    data = bytearray(raw)
    for at, value in flips:
        data[at % len(data)] = value
    decoder = dict((t, d) for d, t in DECODERS)[type_code]
    try:
        json.dumps(decode_body(decoder, bytes(data), fmt80, type_code))
    except BinlogError:
        pass
