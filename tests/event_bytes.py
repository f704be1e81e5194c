"""Helpers for tests that feed hand-built bodies to single event decoders: the format of a real
binlog, a context, a header, and an encoder for MySQL's serialization-framework integers written
from the format's readme (not from the decoder)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from oracle.context import DecodeContext
from oracle.decoder import _nested_decoder
from oracle.fde import FormatDescription
from oracle.framing import walk
from oracle.header import Header
from oracle.reader import Reader

from .external import ROOT

BLACKBEAM = ROOT / "blackbeam__rust_mysql_common"
MARIADB_POC = ROOT / "mariadb-operator__mariadb-poc"


def external(name: str) -> Path:
    return BLACKBEAM / f"test-data__binlogs__{name}"


def first_format(path: Path) -> FormatDescription:
    """The format in force after the first Format_description event of a real binlog."""
    data = path.read_bytes()
    for raw in walk(data):
        if raw.header.type_code == 15:
            return raw.format
    raise AssertionError(f"{path} has no Format_description event")


def decode_body(decoder: Callable[..., dict[str, Any]], body: bytes, fmt: FormatDescription,
                type_code: int, server_id: int = 1, log_pos: int = 0) -> dict[str, Any]:
    ctx = DecodeContext(format=fmt)
    ctx.decode_nested = _nested_decoder(ctx)
    header = Header(0, type_code, server_id, fmt.header_length + len(body), log_pos, 0)
    return decoder(Reader(body, origin=fmt.header_length), ctx, header)


def varlen(v: int) -> bytes:
    """Unsigned: n bytes carry 7n value bits (n <= 8), 9 bytes carry 64; the first byte's low
    bits are n-1 ones and a zero."""
    bits = v.bit_length()
    if bits > 56:
        return b"\xff" + v.to_bytes(8, "little")
    n = max(1, -(-bits // 7))
    return ((v << n) | ((1 << (n - 1)) - 1)).to_bytes(n, "little")


def varlen_signed(v: int) -> bytes:
    return varlen(v << 1 if v >= 0 else ((-(v + 1)) << 1) | 1)


def message(fields: dict[int, bytes], last_required: int = 0, version: int = 1) -> bytes:
    """A serialization-framework message: version id, total size, last non-ignorable field id,
    then `field id + data` for each field given."""
    payload = b"".join(varlen(i) + data for i, data in sorted(fields.items()))
    head = varlen(version)
    tail = varlen(last_required) + payload
    size = len(head) + len(tail)
    while len(head) + len(varlen(size)) + len(tail) != size:
        size = len(head) + len(varlen(size)) + len(tail)
    return head + varlen(size) + tail
