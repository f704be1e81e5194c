"""Compression for the compressed events: the inverse of oracle/compression.py.

Byte identity with a server holds only when this zlib/zstd produces the server's stream; a
compressed body that carries the bytes it was decoded from (`compressed`) is written from them.
"""
from __future__ import annotations

import zlib

import zstandard


def mariadb_compress(data: bytes) -> bytes:
    """MariaDB's binlog_buf_compress: 0x80 | lenlen, the length big-endian in the fewest bytes
    (at least one), then zlib's compress() at the default level."""
    lenlen = max(1, (len(data).bit_length() + 7) // 8)
    return bytes([0x80 | lenlen]) + len(data).to_bytes(lenlen, "big") + zlib.compress(data)


def zstd_compress(data: bytes) -> bytes:
    """A zstd frame at MySQL's default level (binlog_transaction_compression_level_zstd = 3)."""
    return zstandard.ZstdCompressor(level=3).compress(data)
