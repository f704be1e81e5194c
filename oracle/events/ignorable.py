"""IGNORABLE_LOG_EVENT (28): a reserved type for data a replica may skip; it has no layout of its
own, so its body is kept as bytes."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import binary


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"data": binary(r.rest())}
