"""The two spellings of one JSON value that MySQL versions disagree on, each accepted.

MySQL 5.7 stores a binary string cast to JSON (`JSON_OBJECT('bin', CAST(x'00ff' AS BINARY))`)
as an opaque value of type VAR_STRING (253). The 5.7 server that wrote it prints it
`"base64:type253:AP8="`; MySQL 8.0+ (and so mysqlbinlog 9.7, the reference the oracle follows)
prints the string of its raw bytes, `"\\u0000\\xff"`, which is not UTF-8 (the canonical
`json_bytes`). Both read the same stored bytes, as a signed and an unsigned reading of an integer
without SIGNEDNESS do (harness/row_values.py), so a parser giving the writer's spelling is
accepted there, and only there: the oracle's `opaque` list says which values are such opaques."""
from __future__ import annotations

import base64
from typing import Any

from oracle.codecs.jsonb import quote_json_string

VAR_STRING = 253


def writers_spelling(expected: Any) -> dict[str, str] | None:
    """The expected JSON value as the 5.7 server spells it, or None where nothing differs."""
    if not isinstance(expected, dict) or expected.get("type") not in ("json", "json_bytes"):
        return None
    opaques = [o for o in expected.get("opaque") or () if isinstance(o, dict) and o.get("field_type") == VAR_STRING]
    if not opaques:
        return None
    text = bytes.fromhex(expected["value"]) if expected["type"] == "json_bytes" else expected["value"].encode()
    cursor = 0
    for o in opaques:  # in document order, as the oracle lists them
        data = bytes.fromhex(o["data"])
        as_printed = quote_json_string(data)
        at = text.find(as_printed, cursor)
        if at < 0:
            return None
        spelled = b'"base64:type253:' + base64.b64encode(data) + b'"'
        text = text[:at] + spelled + text[at + len(as_printed):]
        cursor = at + len(spelled)
    try:
        return {"type": "json", "value": text.decode("utf-8")}
    except UnicodeDecodeError:
        return None
