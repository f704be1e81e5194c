"""oracle.wire: packet framing, 16 MB split and reassembly, OK/ERR/EOF, length-encoded values, and
the decoding of a dump stream (`python -m oracle decode --stream`)."""
from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.framing import walk
from oracle.wire.errors import BadPacket, BadSequence, PacketTooLarge, TruncatedPacket
from oracle.wire.packets import (MAX_PACKET, EofPacket, ErrPacket, OkPacket, PacketAssembler,
                                 chunk_lengths, encode_packets, iter_packets, lenenc_int, lenenc_str,
                                 read_lenenc_int, read_lenenc_str)
from oracle.wire.stream import decode_stream_bytes

ROOT = Path(__file__).resolve().parent.parent
JSON_ROW = ROOT / "corpus/mysql-9.7/json--row/binlog.000001"


@given(st.binary(max_size=300), st.integers(0, 255))
def test_frame_round_trip(payload: bytes, seq: int) -> None:
    wire, next_seq = encode_packets(payload, seq)
    (packet,) = iter_packets(wire, first_seq=seq)
    assert packet.payload == payload and packet.seq == seq and next_seq == (seq + 1) & 0xFF


@given(st.lists(st.binary(max_size=100), max_size=8), st.data())
def test_assembler_reassembles_any_split_of_the_bytes(payloads: list[bytes], data: st.DataObject) -> None:
    wire, seq = b"", 0
    for p in payloads:
        chunk, seq = encode_packets(p, seq)
        wire += chunk
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    asm, got, prev = PacketAssembler(), [], 0
    for cut in cuts + [len(wire)]:
        got += asm.feed(wire[prev:cut])
        prev = cut
    assert [p.payload for p in got] == payloads and asm.pending == 0


@pytest.mark.parametrize("size,lengths", [
    (0, [0]), (MAX_PACKET - 1, [MAX_PACKET - 1]), (MAX_PACKET, [MAX_PACKET, 0]),
    (MAX_PACKET + 1, [MAX_PACKET, 1]), (2 * MAX_PACKET, [MAX_PACKET, MAX_PACKET, 0]),
])
def test_16mb_split_ends_with_a_short_packet(size: int, lengths: list[int]) -> None:
    assert chunk_lengths(size) == lengths


def test_exactly_16mb_payload_round_trips_with_an_empty_trailer() -> None:
    payload = bytes(range(256)) * (MAX_PACKET // 256) + b"x" * (MAX_PACKET % 256)
    assert len(payload) == MAX_PACKET
    wire, seq = encode_packets(payload, 7)
    assert len(wire) == MAX_PACKET + 8 and wire[-4:] == b"\x00\x00\x00\x08" and seq == 9
    (packet,) = iter_packets(wire)
    assert packet.payload == payload and packet.packets == 2
    asm = PacketAssembler()
    assert asm.feed(wire[:-4]) == []  # the empty trailer is what ends it
    (again,) = asm.feed(wire[-4:])
    assert again.payload == payload


@given(st.integers(0, 2**64 - 1))
def test_lenenc_int_round_trip(n: int) -> None:
    enc = lenenc_int(n)
    assert read_lenenc_int(enc, 0) == (n, len(enc))


@given(st.binary(max_size=70000))
@settings(max_examples=30)
def test_lenenc_str_round_trip(s: bytes) -> None:
    enc = lenenc_str(s)
    assert read_lenenc_str(enc, 0) == (s, len(enc))


@given(st.integers(0, 2**40), st.integers(0, 2**40), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
       st.binary(max_size=40))
def test_ok_round_trip(rows: int, last: int, status: int, warnings: int, info: bytes) -> None:
    ok = OkPacket(rows, last, status, warnings, info)
    assert OkPacket.parse(ok.encode()) == ok


@given(st.integers(0, 0xFFFF), st.text(max_size=80), st.text("0123456789ABCDEFHY", min_size=5, max_size=5))
def test_err_round_trip(code: int, message: str, state: str) -> None:
    err = ErrPacket(code, message, state)
    assert ErrPacket.parse(err.encode()) == ErrPacket(code, message.encode("utf-8", "replace").decode(), state)


def test_eof_round_trip_and_size_rule() -> None:
    assert EofPacket.parse(EofPacket(3, 0x22).encode()) == EofPacket(3, 0x22)
    with pytest.raises(BadPacket):
        EofPacket.parse(b"\xfe" + b"\0" * 8)  # 9 bytes: a length-encoded integer, not an EOF


@pytest.mark.parametrize("wire,error,offset", [
    (b"\x05\x00", TruncatedPacket, 0),                      # half a header
    (b"\x05\x00\x00\x00abc", TruncatedPacket, 0),            # a length that lies
    (b"\x01\x00\x00\x00a\x01\x00\x00\x05b", BadSequence, 8),  # seq 5 after seq 0
])
def test_bad_framing_is_a_typed_error_with_its_offset(wire: bytes, error: type, offset: int) -> None:
    with pytest.raises(error) as e:
        list(iter_packets(wire))
    assert e.value.offset == offset


def test_a_length_past_the_limit_is_refused_before_its_bytes_arrive() -> None:
    asm = PacketAssembler(max_payload=1000)
    with pytest.raises(PacketTooLarge):
        asm.feed(b"\xff\xff\xff\x00")  # 16 MB announced, nothing sent: no allocation
    with pytest.raises(PacketTooLarge):
        list(iter_packets(b"\xff\xff\xff\x00", max_payload=1000))


@pytest.mark.parametrize("payload,error", [
    (b"\xfc\x01", TruncatedPacket), (b"\xff", BadPacket), (b"\x05ab", TruncatedPacket),
])
def test_bad_lenenc_values(payload: bytes, error: type) -> None:
    with pytest.raises(error):
        read_lenenc_str(payload, 0)


def _fake_rotate(name: bytes, pos: int, crc: bool) -> bytes:
    body = pos.to_bytes(8, "little") + name
    size = 19 + len(body) + (4 if crc else 0)
    event = (b"\0\0\0\0\x04" + (1).to_bytes(4, "little") + size.to_bytes(4, "little") + b"\0\0\0\0"
             + b"\x20\x00" + body)
    return event + zlib.crc32(event).to_bytes(4, "little") if crc else event


def _dump_stream(path: Path) -> bytes:
    """What a server sends for a non-blocking dump of `path` from position 4."""
    buf = path.read_bytes()
    wire, seq = encode_packets(b"\0" + _fake_rotate(path.name.encode(), 4, True), 1)
    for raw in walk(buf):
        chunk, seq = encode_packets(b"\0" + buf[raw.offset:raw.offset + raw.header.event_size], seq)
        wire += chunk
    return wire + encode_packets(EofPacket().encode(), seq)[0]


def test_stream_decodes_as_the_file_does() -> None:
    records = list(decode_stream_bytes(_dump_stream(JSON_ROW)))
    assert records[0]["type"] == "ROTATE_EVENT" and records[0]["body"]["new_log_ident"] == JSON_ROW.name
    assert records[0]["checksum"]["verified"] is True
    assert records[-1]["packet"] == "eof"
    out = subprocess.run([sys.executable, "-m", "oracle", "decode", str(JSON_ROW)], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode().splitlines()
    assert [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records[1:-1]] == out


def test_stream_cli_reports_a_cut_stream_with_its_offset(tmp_path: Path) -> None:
    wire = _dump_stream(JSON_ROW)
    capture = tmp_path / "cut.stream"
    capture.write_bytes(wire[:len(wire) // 2])
    proc = subprocess.run([sys.executable, "-m", "oracle", "decode", "--stream", str(capture)], cwd=ROOT,
                          capture_output=True)
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert err.startswith("error: TruncatedPacket at offset ") and "Traceback" not in err
    assert len(proc.stdout.splitlines()) > 5


def test_stream_err_packet_is_a_record() -> None:
    wire, _ = encode_packets(ErrPacket(1236, "Could not find first log file name in binary log index file").encode(), 1)
    assert list(decode_stream_bytes(wire)) == [{
        "packet": "err", "offset": 0, "code": 1236, "sql_state": "HY000",
        "message": "Could not find first log file name in binary log index file"}]
