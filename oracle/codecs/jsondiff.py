"""The JSON diffs of a Partial_update_rows event (binlog_row_value_options=PARTIAL_JSON).

A partial JSON column in an after-image holds a 4-byte length and then, back to back, diffs of
(sql/json_diff.cc Json_diff_vector::write_binary, as mysqlbinlog's print_json_diff reads them):
operation byte (0 REPLACE, 1 INSERT, 2 REMOVE), packed-integer path length, the path text, and for
REPLACE and INSERT a packed-integer value length and the value in binary JSON.

mysqlbinlog prints them as nested SQL function calls on the column, e.g.
  JSON_REPLACE(@2, '$.age', 26)
  JSON_INSERT(JSON_REPLACE(@2, '$.a', 1),\\n###      '$.b', 'x')
consecutive diffs with the same function share one call; INSERT at an array cell (path ending in
']') is JSON_ARRAY_INSERT. Values print as SQL: numbers, true/false/null bare, strings and
temporal values quoted, objects and arrays as CAST('<json>' AS JSON).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BadEventBody, LengthPastEnd, TruncatedEvent
from ..values import text
from .jsonb import JsonValue, STRING_LIKE, decode_jsonb_at, sql_quote, to_canonical, to_json_bytes

OPERATIONS = ("REPLACE", "INSERT", "REMOVE")
LINE_SEPARATOR = b"\n###      "


@dataclass(frozen=True, slots=True)
class JsonDiff:
    operation: str  # REPLACE | INSERT | REMOVE
    path: bytes  # a JSON path, e.g. b"$.a[1]"
    value: JsonValue | None  # None for REMOVE

    @property
    def function(self) -> str:
        """The SQL function mysqlbinlog names for this diff."""
        if self.operation == "INSERT":
            return "JSON_ARRAY_INSERT" if self.path.endswith(b"]") else "JSON_INSERT"
        return "JSON_" + self.operation

    def to_json(self) -> dict[str, Any]:
        return {"operation": self.operation, "path": text(self.path),
                "value": None if self.value is None else to_canonical(self.value)}


def _packed_length(buf: bytes, pos: int, end: int, origin: int, what: str) -> tuple[int, int]:
    """net_field_length_checked: 1, 3, 4 or 9 bytes; 251 (NULL) is no valid length."""
    if pos >= end:
        raise TruncatedEvent(origin + pos, f"{what} needs a length byte")
    first = buf[pos]
    if first < 251:
        return first, pos + 1
    if first == 251:
        raise BadEventBody(origin + pos, f"{what} is the NULL marker 0xfb")
    width = {252: 2, 253: 3}.get(first, 8)
    if pos + 1 + width > end:
        raise TruncatedEvent(origin + pos, f"{what} needs {1 + width} bytes, {end - pos} left")
    return int.from_bytes(buf[pos + 1:pos + 1 + width], "little"), pos + 1 + width


def decode_json_diffs(data: bytes, offset: int = 0) -> list[JsonDiff]:
    """Decode a partial JSON column's diff list. `offset` is the absolute offset of data[0]."""
    return decode_json_diffs_at(data, 0, len(data), offset)


def decode_json_diffs_at(buf: bytes, pos: int, end: int, origin: int = 0) -> list[JsonDiff]:
    """decode_json_diffs over buf[pos:end] without copying it."""
    diffs = []
    while pos < end:
        op = buf[pos]
        if op >= len(OPERATIONS):
            raise BadEventBody(origin + pos, f"JSON diff operation {op} is not REPLACE/INSERT/REMOVE")
        path_len, pos = _packed_length(buf, pos + 1, end, origin, "JSON diff path length")
        if path_len > end - pos:
            raise LengthPastEnd(origin + pos, f"JSON diff path length {path_len} exceeds the "
                                              f"{end - pos} bytes left")
        path = bytes(buf[pos:pos + path_len])
        pos += path_len
        value = None
        if OPERATIONS[op] != "REMOVE":
            value_len, pos = _packed_length(buf, pos, end, origin, "JSON diff value length")
            if value_len > end - pos:
                raise LengthPastEnd(origin + pos, f"JSON diff value length {value_len} exceeds the "
                                                  f"{end - pos} bytes left")
            value = decode_jsonb_at(buf, pos, pos + value_len, origin)
            pos += value_len
        diffs.append(JsonDiff(OPERATIONS[op], path, value))
    return diffs


# json_wrapper_to_string(json_type=false): how print_json_diff prints a value argument.
_BARE = frozenset(("null", "true", "false", "int", "uint", "double", "decimal"))


def value_sql(value: JsonValue) -> bytes:
    text = to_json_bytes(value, False)
    if value.kind in _BARE:
        return text
    if value.kind in STRING_LIKE:
        return sql_quote(text)
    return b"CAST(" + sql_quote(text) + b" AS JSON)"


def diffs_mysqlbinlog_bytes(diffs: list[JsonDiff], column: str) -> bytes:
    """What `mysqlbinlog -vvv` prints after `@N=` for a partial JSON column; column is "@N"."""
    args = [sql_quote(d.path) + (b", " + value_sql(d.value) if d.value is not None else b"") for d in diffs]
    return nested_calls([d.function.encode() for d in diffs], args, column.encode())


def nested_calls(names: list[bytes], args: list[bytes], column: bytes) -> bytes:
    """print_json_diff's layout: one JSON_<OP>( per run of equal functions, the last run's
    outermost, around the column; then each diff's arguments, a run closed by ")"."""
    opening = [names[i] + b"(" for i in range(len(names) - 1, -1, -1) if i == 0 or names[i - 1] != names[i]]
    out = [LINE_SEPARATOR.join(opening), column]
    if not names:
        return b"".join(out)
    out.append(b", ")
    for i, arg in enumerate(args):
        out.append(arg)
        last = i == len(args) - 1
        if last or names[i + 1] != names[i]:
            out.append(b")")
        if not last:
            out.append(b"," + LINE_SEPARATOR)
    return b"".join(out)


def diffs_mysqlbinlog_text(diffs: list[JsonDiff], column: str) -> str:
    return diffs_mysqlbinlog_bytes(diffs, column).decode("utf-8", "surrogateescape")


def diffs_to_canonical(diffs: list[JsonDiff]) -> dict[str, Any]:
    """The canonical model's form of a partial JSON column value."""
    return {"type": "json_diff", "value": [d.to_json() for d in diffs]}
