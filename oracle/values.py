"""Canonical JSON values that every parser must emit identically.

Rules (see docs/canonical-model.md):
- integers within +-(2**53 - 1) are JSON numbers; others are {"type": "int", "value": "<decimal>"};
- byte strings that are valid UTF-8 are JSON strings; others are {"type": "bytes", "value": "<hex>"};
- values a JSON number cannot carry (decimal, fractional time, JSON documents, ...) are tagged
  {"type": <name>, "value": "<string>"}.
"""
from __future__ import annotations

from typing import Any

MAX_SAFE_INT = 2**53 - 1


def tagged(type_name: str, value: str) -> dict[str, str]:
    return {"type": type_name, "value": value}


def integer(v: int) -> int | dict[str, str]:
    return v if -MAX_SAFE_INT <= v <= MAX_SAFE_INT else tagged("int", str(v))


def binary(b: bytes) -> dict[str, str]:
    """Always tagged: for fields that are raw bytes by nature (hashes, opaque blobs)."""
    return tagged("bytes", b.hex())


def text(b: bytes) -> str | dict[str, str]:
    """For fields that are usually text (SQL, names) but are bytes on the wire."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return binary(b)


# Keys that say how a value was laid out in bytes, not what it is: a byte-exact re-encoding
# needs them (oracle/encode), a comparison of parsers does not.
LAYOUT_ONLY = frozenset({"bitmap_padding", "null_padding", "opaque", "unsigned", "binary"})


def plain(value: Any) -> Any:
    """Tagged values back to Python values, for comparison: an int tag equals the same number;
    layout-only keys are dropped."""
    if isinstance(value, dict):
        if set(value) == {"type", "value"} and value["type"] == "int":
            return int(value["value"])
        return {k: plain(v) for k, v in value.items() if k not in LAYOUT_ONLY}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
