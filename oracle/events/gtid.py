"""MySQL GTID events: GTID_LOG_EVENT (33), ANONYMOUS_GTID_LOG_EVENT (34) and
GTID_TAGGED_LOG_EVENT (42, MySQL 8.3+).

Untagged events grew over versions and are read as far as the event goes, like
Gtid_event::Gtid_event in libs/mysql/binlog/event/control_events.cpp: 5.6 stops after the GNO,
5.7 adds the logical clock, 8.0 the commit timestamps, transaction length, server versions, and
8.0.2x the commit group ticket. A field the event does not carry is absent from the body;
original_commit_timestamp / original_server_version are given whenever their immediate_ field
is, resolved as the server resolves them (equal to the immediate value unless the high bit says
the original follows). Tagged events use the serialization framework (mysql_serialization.py).
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..event_types import EventType
from ..header import Header
from ..reader import Reader
from ..values import integer, text
from . import mysql_serialization as ser

FLAG_MAY_HAVE_SBR = 0x01
LOGICAL_TIMESTAMP_TYPECODE = 2
_COMMIT_TS_ORIGINAL_FOLLOWS = 1 << 55  # in the 7-byte immediate_commit_timestamp
_SERVER_VERSION_ORIGINAL_FOLLOWS = 1 << 31  # in the 4-byte immediate_server_version
COMMIT_GROUP_TICKET_LENGTH = 8
TAG_MAX_LENGTH = 32
_GNO_END = (1 << 63) - 1  # one past the largest GNO


def uuid_text(b: bytes) -> str:
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def int64(v: int) -> int:
    """A 64-bit field the server reads into an int64_t."""
    return v - (1 << 64) if v >> 63 else v


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    gtid_flags = r.u8("gtid_flags")
    sid = r.bytes(16, "sid")
    gno_offset = r.offset
    gno = int64(r.u64("gno"))
    anonymous = header.type_code == EventType.ANONYMOUS_GTID_LOG_EVENT
    if anonymous and gno != 0:
        raise BadEventBody(gno_offset, f"Invalid GNO {gno}: an anonymous GTID has GNO 0")
    if not anonymous and not 1 <= gno < _GNO_END:
        raise BadEventBody(gno_offset, f"Invalid GNO {gno}: outside 1..{_GNO_END - 1}")
    body: dict[str, Any] = {
        "gtid_flags": gtid_flags,
        "may_have_sbr_stmts": bool(gtid_flags & FLAG_MAY_HAVE_SBR),
        "sid": uuid_text(sid),
        "gno": integer(gno),
        "gtid": "ANONYMOUS" if anonymous else f"{uuid_text(sid)}:{gno}",
    }
    if r.remaining() >= 1:
        body.update(_logical_clock_onwards(r))
    return body


def _logical_clock_onwards(r: Reader) -> dict[str, Any]:
    """Everything after the GNO. Versions up to 5.7.4 wrote another typecode and shorter clocks,
    which the server ignores; so do we (only lt_type is reported then)."""
    out: dict[str, Any] = {"lt_type": r.u8("lt_type")}
    if out["lt_type"] != LOGICAL_TIMESTAMP_TYPECODE:
        return out
    out["last_committed"] = integer(int64(r.u64("last_committed")))
    out["sequence_number"] = integer(int64(r.u64("sequence_number")))
    if r.remaining() < 7:
        return out
    immediate = r.uint(7, "immediate_commit_timestamp")
    original = immediate
    if immediate & _COMMIT_TS_ORIGINAL_FOLLOWS:
        immediate &= ~_COMMIT_TS_ORIGINAL_FOLLOWS
        original = r.uint(7, "original_commit_timestamp")
    out["immediate_commit_timestamp"] = integer(immediate)
    out["original_commit_timestamp"] = integer(original)
    if r.remaining() >= 1:
        out["transaction_length"] = integer(r.packed_int("transaction_length"))
    if r.remaining() >= 4:
        immediate_v = r.u32("immediate_server_version")
        original_v = immediate_v
        if immediate_v & _SERVER_VERSION_ORIGINAL_FOLLOWS:
            immediate_v &= ~_SERVER_VERSION_ORIGINAL_FOLLOWS
            original_v = r.u32("original_server_version")
        out["immediate_server_version"] = immediate_v
        out["original_server_version"] = original_v
        if r.remaining() >= COMMIT_GROUP_TICKET_LENGTH:
            out["commit_group_ticket"] = integer(r.u64("commit_group_ticket"))
    return out


# Gtid_event::define_fields(), in order: the field ids are the positions in this list.
_TAGGED_FIELDS = (
    ser.Field("gtid_flags", ser.unsigned(8)),
    ser.Field("sid", ser.fixed_array(16, ser.unsigned(8))),
    ser.Field("gno", ser.signed(64)),
    ser.Field("tag", ser.string(TAG_MAX_LENGTH)),
    ser.Field("last_committed", ser.signed(64)),
    ser.Field("sequence_number", ser.signed(64)),
    ser.Field("immediate_commit_timestamp", ser.unsigned(64)),
    ser.Field("original_commit_timestamp", ser.unsigned(64)),
    ser.Field("transaction_length", ser.unsigned(64)),
    ser.Field("immediate_server_version", ser.unsigned(32)),
    ser.Field("original_server_version", ser.unsigned(32)),
    ser.Field("commit_group_ticket", ser.unsigned(64)),
)
# Absent fields the server fills in from another (Field_missing_functor in define_fields()).
_DEFAULT_FROM = {
    "original_commit_timestamp": "immediate_commit_timestamp",
    "original_server_version": "immediate_server_version",
}
_TAGGED_ORDER = ("gtid_flags", "may_have_sbr_stmts", "sid", "tag", "gno", "gtid",
                 "last_committed", "sequence_number", "immediate_commit_timestamp",
                 "original_commit_timestamp", "transaction_length", "immediate_server_version",
                 "original_server_version", "commit_group_ticket")


def decode_tagged(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    fields = ser.decode_message(r, _TAGGED_FIELDS, "Gtid_tagged")
    for name, source in _DEFAULT_FROM.items():
        if name not in fields and source in fields:
            fields[name] = fields[source]
    if "gtid_flags" in fields:
        fields["may_have_sbr_stmts"] = bool(fields["gtid_flags"] & FLAG_MAY_HAVE_SBR)
    if "sid" in fields:
        sid = uuid_text(fields["sid"])
        fields["sid"] = sid
        if "gno" in fields:
            tag = fields.get("tag", b"")
            fields["gtid"] = ":".join([sid, tag.decode("latin-1")] if tag else [sid]) + f":{fields['gno']}"
    if "tag" in fields:
        fields["tag"] = text(fields["tag"])
    return {k: _json(fields[k]) for k in _TAGGED_ORDER if k in fields}


def _json(v: Any) -> Any:
    return integer(v) if isinstance(v, int) and not isinstance(v, bool) else v
