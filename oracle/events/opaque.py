"""Bodies kept as bytes: SLAVE_EVENT (never written by any server) and, in the table below,
types whose decoder has not been written yet."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import binary


def decode_opaque(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"data": binary(r.rest())}
