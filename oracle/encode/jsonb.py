"""JSON column values back to MySQL's binary JSON: not written yet. A document the rows decoder
kept as raw bytes ({"type": "jsonb"} / {"type": "jsonb_diff"}) is written from them."""
from __future__ import annotations

from typing import Any

from .writer import EncodeError


def json_value_bytes(v: Any) -> bytes:
    if isinstance(v, dict) and v.get("type") == "jsonb":
        return bytes.fromhex(v["value"])
    raise EncodeError("encoding JSON documents to binary JSON is not implemented")


def json_diff_bytes(v: Any) -> bytes:
    if isinstance(v, dict) and v.get("type") == "jsonb_diff":
        return bytes.fromhex(v["value"])
    raise EncodeError("encoding partial JSON diffs is not implemented")
