"""JSON column values for row images: whole binary documents (oracle/codecs/jsonb.py) and the
diff lists of Partial_update_rows after-images (oracle/codecs/jsondiff.py), as canonical values:
{"type": "json", "value": <JSON text>} and {"type": "json_diff", "value": [...]}.

Converters take (buf, start, end) so the documents are decoded in place; error offsets are
buffer indices, which the rows decoder turns into file offsets. Until the JSON modules are in
the tree the bytes are kept as {"type": "jsonb", "value": <hex>} (and "jsonb_diff").
"""
from __future__ import annotations

from typing import Any

from ..values import tagged

try:
    from .jsonb import canonical_at, decode_jsonb_at
    from .jsondiff import decode_json_diffs_at, diffs_to_canonical
except ImportError:  # pragma: no cover - only while those modules are not committed
    decode_jsonb_at = None


def json_value(buf: bytes, start: int, end: int) -> dict[str, Any]:
    if decode_jsonb_at is None:
        return tagged("jsonb", bytes(buf[start:end]).hex())
    return canonical_at(buf, start, end)


def json_diffs(buf: bytes, start: int, end: int) -> dict[str, Any]:
    if decode_jsonb_at is None:
        return tagged("jsonb_diff", bytes(buf[start:end]).hex())
    return diffs_to_canonical(decode_json_diffs_at(buf, start, end))
