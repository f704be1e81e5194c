"""MariaDB GTID_EVENT (162): starts every event group in place of BEGIN (sql/log_event.cc,
Gtid_log_event::Gtid_log_event).

Post-header (at least GTID_HEADER_LEN = 19 bytes): seq_no (8), domain_id (4), flags2 (1), then
commit_id (8) if FL_GROUP_COMMIT_ID, an XID if FL_PREPARED_XA or FL_COMPLETED_XA (formatID 4,
gtrid_length 1, bqual_length 1, data), and, in any bytes left (10.5+ writes them where older
servers wrote zero padding), flags_extra (1) and what it announces: extra_engines (1) for
FL_EXTRA_MULTI_ENGINE_E1, sa_seq_no (8) for FL_COMMIT_ALTER_E1 / FL_ROLLBACK_ALTER_E1, thread_id
(4) for FL_EXTRA_THREAD_ID (11.x, MDEV-7850). Zero padding after that is ignored. The GTID is
domain_id-server_id-seq_no, server_id being the header's.
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import integer
from .xa_prepare import check_xid_lengths, xid_fields

GTID_HEADER_LEN = 19

FLAGS2 = {
    0x01: "FL_STANDALONE",
    0x02: "FL_GROUP_COMMIT_ID",
    0x04: "FL_TRANSACTIONAL",
    0x08: "FL_ALLOW_PARALLEL",
    0x10: "FL_WAITED",
    0x20: "FL_DDL",
    0x40: "FL_PREPARED_XA",
    0x80: "FL_COMPLETED_XA",
}
FL_GROUP_COMMIT_ID = 0x02
FL_XA = 0x40 | 0x80

FLAGS_EXTRA = {
    0x01: "FL_EXTRA_MULTI_ENGINE_E1",
    0x02: "FL_START_ALTER_E1",
    0x04: "FL_COMMIT_ALTER_E1",
    0x08: "FL_ROLLBACK_ALTER_E1",
    0x10: "FL_EXTRA_THREAD_ID",
}
# flags_extra bit -> the field it announces, and that field's width.
_EXTRA_FIELDS = (
    (0x01, "extra_engines", 1),
    (0x04 | 0x08, "sa_seq_no", 8),
    (0x10, "thread_id", 4),
)


def bit_names(value: int, names: dict[int, str]) -> list[str]:
    """Names of the set bits, low to high; an undefined bit is named by its value."""
    return [names.get(1 << i, f"UNDEFINED_{1 << i:#x}") for i in range(value.bit_length()) if value >> i & 1]


def mariadb_post_header_len(ctx: DecodeContext, type_code: int, minimum: int, what: str,
                            r: Reader) -> int:
    """The post-header length the FDE gives (or, before any FDE, the minimum), checked as
    MariaDB checks it: below the minimum the event is invalid."""
    fmt = ctx.format
    length = fmt.post_header_len(type_code) if fmt.post_header_lengths else minimum
    if length < minimum:
        raise BadEventBody(r.offset, f"{what} post-header length {length} is below {minimum}")
    r.need(length, f"{what} post-header")
    return length


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    mariadb_post_header_len(ctx, header.type_code, GTID_HEADER_LEN, "Gtid", r)
    seq_no = r.u64("seq_no")
    domain_id = r.u32("domain_id")
    flags2 = r.u8("flags2")
    body: dict[str, Any] = {
        "gtid": f"{domain_id}-{header.server_id}-{seq_no}",
        "seq_no": integer(seq_no),
        "domain_id": domain_id,
        "flags2": flags2,
        "flags2_names": bit_names(flags2, FLAGS2),
    }
    if flags2 & FL_GROUP_COMMIT_ID:
        body["commit_id"] = integer(r.u64("commit_id"))
    if flags2 & FL_XA:
        format_id = r.u32("xid formatID")
        offset = r.offset
        gtrid_length = r.u8("xid gtrid_length")
        bqual_length = r.u8("xid bqual_length")
        check_xid_lengths(offset, gtrid_length, bqual_length)
        gtrid = r.bytes(gtrid_length, "xid gtrid")
        bqual = r.bytes(bqual_length, "xid bqual")
        body.update(xid_fields(format_id, gtrid, bqual))
    if r.remaining():
        flags_extra = r.u8("flags_extra")
        body["flags_extra"] = flags_extra
        body["flags_extra_names"] = bit_names(flags_extra, FLAGS_EXTRA)
        for bits, name, width in _EXTRA_FIELDS:
            if flags_extra & bits:
                body[name] = integer(r.uint(width, name))
    return body
