"""Values as mysqlbinlog prints them, read back: quoted strings, integers, NULL.

log_event_print_value writes strings through my_b_write_quoted (\\b \\f \\n \\r \\t \\\\ \\' and
\\xNN for other bytes below 32), integers as signed with the unsigned reading in parentheses when
negative, and everything else (decimals, floats, dates, bits) as text, kept as printed here.
"""
from __future__ import annotations

import re
from typing import Any

from .values import integer, text

_ESCAPES = {"b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", "'": b"'"}
_ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|.)", re.S)
_INT = re.compile(r"(-?\d+)(?: \((\d+)\))?$")
_INT_TYPES = ("INT", "TINYINT", "SHORTINT", "MEDIUMINT", "LONGINT", "ENUM(", "YEAR", "TIMESTAMP")


def to_bytes(s: str) -> bytes:
    """Back to the bytes the tool wrote (mysqlbinlog_text.decode_output kept them)."""
    return s.encode("utf-8", "surrogateescape")


def unquote(quoted: str) -> bytes | None:
    """The bytes inside a '...' literal written by my_b_write_quoted; None if it is not one."""
    if len(quoted) < 2 or quoted[0] != "'" or quoted[-1] != "'":
        return None
    raw = to_bytes(quoted[1:-1])

    def one(m: re.Match[bytes]) -> bytes:
        esc = m[1]
        if esc[:1] == b"x" and len(esc) == 3:
            return bytes([int(esc[1:], 16)])
        return _ESCAPES.get(esc.decode("latin-1"), b"\\" + esc)

    return _ESCAPE.sub(one, raw)


def column_value(printed: str, column_type: str | None) -> Any:
    """The canonical JSON value where the text determines it: NULL, integers, strings;
    otherwise the printed text, stripped (FLOAT is printed left-justified in 20 columns)."""
    s = printed.strip()
    if s == "NULL":
        return None
    if column_type is None or column_type.startswith(_INT_TYPES):
        m = _INT.match(s)
        if m:
            return integer(int(m[1]))
    b = unquote(s)
    if b is not None:
        return text(b)
    return s
