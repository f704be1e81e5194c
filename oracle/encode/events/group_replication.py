"""Group Replication events: TRANSACTION_CONTEXT_EVENT (36) and VIEW_CHANGE_EVENT (37).
Strings the server copies with strndup are written back NUL-padded to their stored length."""
from __future__ import annotations

from typing import Any

from ...events.view_change import ENCODED_VIEW_ID_MAX_LEN
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes


def _padded(value: bytes, length: int, what: str) -> bytes:
    if len(value) > length:
        raise EncodeError(f"{what} is {len(value)} bytes, {length} allowed")
    return value + bytes(length - len(value))


def encode_transaction_context(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    uuid = as_bytes(body["server_uuid"], "server_uuid")
    uuid_len = max(len(uuid), body.get("server_uuid_len", 0))
    snapshot = as_bytes(body["encoded_snapshot_version"], "encoded_snapshot_version")
    w = Writer().u8(uuid_len, "server_uuid_len").u32(body["thread_id"], "thread_id")
    w.u8(1 if body["gtid_specified"] else 0).u32(len(snapshot))
    w.u32(len(body["write_set"]), "write_set_len").u32(len(body["read_set"]), "read_set_len")
    w.raw(_padded(uuid, uuid_len, "server_uuid")).raw(snapshot)
    for item in body["write_set"] + body["read_set"]:
        b = as_bytes(item, "set item")
        w.u16(len(b), "set item length").raw(b)
    return w.bytes()


def encode_view_change(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    view_id = as_bytes(body["view_id"], "view_id")
    w = Writer().raw(_padded(view_id, ENCODED_VIEW_ID_MAX_LEN, "view_id")).u64(body["seq_number"], "seq_number")
    entries = body["certification_info"]
    w.u32(len(entries), "cert_info_len")
    for e in entries:
        key, value = as_bytes(e["key"], "key"), as_bytes(e["value"], "value")
        w.u16(len(key), "certification key length").raw(key).u32(len(value)).raw(value)
    return w.bytes()
