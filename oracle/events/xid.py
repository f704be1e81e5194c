"""XID_EVENT (16): the commit of a transaction in an XA-capable engine. The xid is the server's
internal transaction counter, 8 bytes (written without byte swapping; every server that writes
it is little-endian)."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import integer


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"xid": integer(r.u64("xid"))}
