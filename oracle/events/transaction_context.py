"""TRANSACTION_CONTEXT_EVENT (36): MySQL Group Replication's certification data for one
transaction (Transaction_context_event in control_events.cpp): server_uuid_len (1), thread_id (4),
gtid_specified (1), encoded_snapshot_version_length (4), write_set_len (4), read_set_len (4), then
server_uuid, the encoded snapshot version (a binary GTID set), and the write and read sets, each
item a 2-byte length and its bytes.

The server copies server_uuid and the set items with strndup, so each ends at its first NUL; the
snapshot version is copied whole (it is binary).
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import binary, text

_ITEM_MIN_BYTES = 2


def c_string(b: bytes) -> bytes:
    """What strndup keeps of b."""
    return b.split(b"\0", 1)[0]


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    server_uuid_len = r.u8("server_uuid_len")
    thread_id = r.u32("thread_id")
    gtid_specified = r.u8("gtid_specified") != 0
    snapshot_len = r.u32("encoded_snapshot_version_length")
    write_set_len = r.u32("write_set_len")
    read_set_len = r.u32("read_set_len")
    server_uuid = c_string(r.bytes(server_uuid_len, "server_uuid"))
    snapshot = r.bytes(snapshot_len, "encoded_snapshot_version")
    write_set = _read_set(r, write_set_len, "write_set")
    read_set = _read_set(r, read_set_len, "read_set")
    return {
        "server_uuid_len": server_uuid_len,
        "thread_id": thread_id,
        "gtid_specified": gtid_specified,
        "encoded_snapshot_version_length": snapshot_len,
        "write_set_len": write_set_len,
        "read_set_len": read_set_len,
        "server_uuid": text(server_uuid),
        "encoded_snapshot_version": binary(snapshot),
        "write_set": write_set,
        "read_set": read_set,
    }


def _read_set(r: Reader, count: int, what: str) -> list[Any]:
    # Each item takes at least its 2-byte length, so the loop ends when the bytes do.
    items = []
    for _ in range(count):
        n = r.u16(what + " item length")
        items.append(text(c_string(r.bytes(n, what + " item"))))
    return items
