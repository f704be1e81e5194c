"""MySQL GTID events: GTID_LOG_EVENT (33), ANONYMOUS_GTID_LOG_EVENT (34) and
GTID_TAGGED_LOG_EVENT (42). Fields absent from the body are absent from the event, as the
decoder reports them; an original_* value equal to its immediate_* one is not written (the
server writes the original only when it differs)."""
from __future__ import annotations

from typing import Any

from ...events.gtid import (_COMMIT_TS_ORIGINAL_FOLLOWS, _SERVER_VERSION_ORIGINAL_FOLLOWS,
                            LOGICAL_TIMESTAMP_TYPECODE)
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes, as_int
from . import mysql_serialization as ser


def uuid_bytes(uuid: str) -> bytes:
    try:
        b = bytes.fromhex(uuid.replace("-", ""))
    except ValueError:
        b = b""
    if len(b) != 16:
        raise EncodeError(f"{uuid!r} is not a UUID")
    return b


def _with_original(w: Writer, body: dict[str, Any], name: str, width: int, follows: int) -> None:
    immediate = as_int(body["immediate_" + name], name)
    original = as_int(body.get("original_" + name, immediate), name)
    if original != immediate:
        w.uint(width, immediate | follows, "immediate_" + name).uint(width, original, "original_" + name)
    else:
        w.uint(width, immediate, "immediate_" + name)


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    w = Writer().u8(body["gtid_flags"], "gtid_flags").raw(uuid_bytes(body["sid"])).sint(8, body["gno"], "gno")
    if "lt_type" not in body:
        return w.bytes()
    w.u8(body["lt_type"], "lt_type")
    if body["lt_type"] != LOGICAL_TIMESTAMP_TYPECODE:
        return w.bytes()
    w.sint(8, body["last_committed"], "last_committed").sint(8, body["sequence_number"], "sequence_number")
    if "immediate_commit_timestamp" not in body:
        return w.bytes()
    _with_original(w, body, "commit_timestamp", 7, _COMMIT_TS_ORIGINAL_FOLLOWS)
    if "transaction_length" in body:
        w.packed_int(body["transaction_length"], "transaction_length")
    if "immediate_server_version" in body:
        _with_original(w, body, "server_version", 4, _SERVER_VERSION_ORIGINAL_FOLLOWS)
        if "commit_group_ticket" in body:
            w.u64(body["commit_group_ticket"], "commit_group_ticket")
    return w.bytes()


def _u(v: Any) -> bytes:
    return ser.varlen_unsigned(as_int(v))


def _s(v: Any) -> bytes:
    return ser.varlen_signed(as_int(v))


# Gtid_event::define_fields(), in order (the field ids are the positions).
_TAGGED_FIELDS: tuple[tuple[str, ser.FieldWriter], ...] = (
    ("gtid_flags", _u),
    ("sid", lambda v: ser.fixed_array(ser.varlen_unsigned)(uuid_bytes(v))),
    ("gno", _s),
    ("tag", lambda v: ser.varlen_string(as_bytes(v, "tag"))),
    ("last_committed", _s),
    ("sequence_number", _s),
    ("immediate_commit_timestamp", _u),
    ("original_commit_timestamp", _u),
    ("transaction_length", _u),
    ("immediate_server_version", _u),
    ("original_server_version", _u),
    ("commit_group_ticket", _u),
)


def encode_tagged(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """An original_* field equal to its immediate_* one is left out: the decoder fills it in."""
    values = dict(body)
    for name in ("commit_timestamp", "server_version"):
        if "immediate_" + name in values and values.get("original_" + name) == values["immediate_" + name]:
            del values["original_" + name]
    return ser.encode_message(values, _TAGGED_FIELDS)
