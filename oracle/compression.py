"""Bounded decompression for compressed events.

A compressed event states its uncompressed size; that number is untrusted, so output is produced
incrementally and capped at min(stated size, MAX_UNCOMPRESSED), and a payload that inflates past
what it stated is an error rather than an allocation.
"""
from __future__ import annotations

import io
import zlib

import zstandard

from .errors import DecompressionError
from .reader import Reader

# No server writes a single event above 1 GiB (max_allowed_packet's ceiling).
MAX_UNCOMPRESSED = 1 << 30


def mariadb_uncompress(r: Reader, what: str) -> bytes:
    """MariaDB's log_bin_compress format: a byte 0x80|n, n bytes of big-endian uncompressed
    length, then a zlib stream."""
    start = r.offset
    head = r.u8(what + " compression header")
    if not head & 0x80:
        raise DecompressionError(start, f"{what}: compression header {head:#04x} lacks the 0x80 bit")
    lenlen = head & 0x07
    if not 1 <= lenlen <= 4:
        raise DecompressionError(start, f"{what}: uncompressed length takes {lenlen} bytes (1..4 allowed)")
    size = r.uint_be(lenlen, what + " uncompressed length")
    return inflate_zlib(r.rest(), size, start, what)


def inflate_zlib(data: bytes, size: int, offset: int, what: str) -> bytes:
    """A zlib stream whose content should be exactly `size` bytes."""
    return _inflate(lambda limit: zlib.decompressobj().decompress(data, limit), zlib.error, "zlib",
                    size, offset, what)


def inflate_zstd(data: bytes, size: int, offset: int, what: str) -> bytes:
    """A zstd frame whose content should be exactly `size` bytes."""
    return _inflate(lambda limit: _bounded_zstd(data, limit), zstandard.ZstdError, "zstd",
                    size, offset, what)


def _inflate(run, error: type[Exception], name: str, size: int, offset: int, what: str) -> bytes:
    """Run a decompressor capped at size + 1 bytes, so that 'more than stated' is detectable
    without inflating any further."""
    if size > MAX_UNCOMPRESSED:
        raise DecompressionError(offset, f"{what}: stated uncompressed size {size} exceeds {MAX_UNCOMPRESSED}")
    try:
        out = run(size + 1)
    except error as e:
        raise DecompressionError(offset, f"{what}: {name}: {e}") from None
    if len(out) != size:
        raise DecompressionError(offset, f"{what}: inflates to {'more than ' if len(out) > size else ''}"
                                         f"{len(out)} bytes, {size} stated")
    return out


def _bounded_zstd(data: bytes, limit: int) -> bytes:
    """Decompress at most `limit` bytes, however far the frame would inflate."""
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
    out = bytearray()
    while len(out) < limit:
        chunk = reader.read(limit - len(out))
        if not chunk:
            break
        out += chunk
    return bytes(out)

