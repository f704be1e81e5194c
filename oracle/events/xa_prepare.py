"""XA_PREPARE_LOG_EVENT (38): the XID of an XA transaction at XA PREPARE (or XA COMMIT ... ONE
PHASE), as control_events.cpp / MariaDB's XA_prepare_log_event read it: one_phase (1 byte),
formatID, gtrid_length, bqual_length (4 bytes each), then gtrid and bqual.

`xid` is the text the servers print for an XID (serialize_xid in sql/xa.h):
X'<gtrid hex>',X'<bqual hex>',<formatID>, lower-case hex. MariaDB's GTID event carries an XID
too and renders it with xid_text() from here.
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import binary

MAXGTRIDSIZE = 64
MAXBQUALSIZE = 64
# The smallest gtrid each server accepts: MariaDB rejects an empty one, MySQL does not.
_MIN_GTRID = {"mysql": 0, "mariadb": 1}


def xid_text(format_id: int, gtrid: bytes, bqual: bytes) -> str:
    return f"X'{gtrid.hex()}',X'{bqual.hex()}',{format_id}"


def xid_fields(format_id: int, gtrid: bytes, bqual: bytes) -> dict[str, Any]:
    return {"format_id": format_id, "gtrid_length": len(gtrid), "bqual_length": len(bqual),
            "gtrid": binary(gtrid), "bqual": binary(bqual), "xid": xid_text(format_id, gtrid, bqual)}


def check_xid_lengths(offset: int, gtrid_length: int, bqual_length: int, min_gtrid: int = 0) -> None:
    if not min_gtrid <= gtrid_length <= MAXGTRIDSIZE or bqual_length > MAXBQUALSIZE:
        raise BadEventBody(offset, f"Invalid XID information: gtrid_length {gtrid_length}, "
                                   f"bqual_length {bqual_length} (gtrid {min_gtrid}..{MAXGTRIDSIZE}, "
                                   f"bqual 0..{MAXBQUALSIZE})")


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    r.skip(ctx.format.post_header_len(header.type_code), "post-header")
    one_phase = r.u8("one_phase") != 0
    format_id = r.u32("formatID")
    offset = r.offset
    gtrid_length = r.u32("gtrid_length")
    bqual_length = r.u32("bqual_length")
    check_xid_lengths(offset, gtrid_length, bqual_length, _MIN_GTRID.get(ctx.format.flavor, 0))
    gtrid = r.bytes(gtrid_length, "gtrid")
    bqual = r.bytes(bqual_length, "bqual")
    return {"one_phase": one_phase, **xid_fields(format_id, gtrid, bqual)}
