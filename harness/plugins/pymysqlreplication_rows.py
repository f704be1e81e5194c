"""python-mysql-replication's row values, mapped to canonical values (oracle/codecs/__init__.py).

The library hands a row as a dict {column name: Python value} covering every column of the
table (absent ones as None). The mapping only changes representation, never content: it uses
the library's own Column objects (type, fsp, charset, ENUM/SET members) and its own parse of
the columns bitmap, so a value the library got wrong stays wrong. Types whose Python form
cannot be mapped back without guessing (JSON documents, GEOMETRY, VECTOR) are left out of
ROW_VALUE_TYPES and so never compared."""
from __future__ import annotations

import calendar
import datetime
import decimal
from typing import Any, Callable

from oracle.values import integer, tagged, text

# The column types (Table_map names) whose values this adapter reports.
ROW_VALUE_TYPES = frozenset(f"MYSQL_TYPE_{t}" for t in (
    "TINY", "SHORT", "INT24", "LONG", "LONGLONG", "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT",
    "DATE", "TIME", "TIME2", "DATETIME", "DATETIME2", "TIMESTAMP", "TIMESTAMP2",
    "STRING", "VARCHAR", "VAR_STRING", "BLOB"))

# pymysqlreplication.constants.FIELD_TYPE codes used below
_BIT, _ENUM, _TIMESTAMP, _TIMESTAMP2 = 16, 247, 7, 17
_EMPTY_SET = "empty set"  # NONE_SOURCE.EMPTY_SET: the library's None for a SET with no member
# NONE_SOURCE values that say "a value is there, but I cannot give it" (zero dates): not NULL, so
# reported as what the library says, which equals no canonical value.
_UNREPRESENTABLE = frozenset({"out of date range", "out of datetime range", "out of datetime2 range"})


def _fraction(usec: int, fsp: int) -> str:
    return "." + str(usec // 10 ** (6 - fsp)).zfill(fsp) if fsp else ""


def _datetime(v: datetime.datetime, col: Any) -> dict[str, str]:
    fsp = getattr(col, "fsp", 0) or 0
    if col.type in (_TIMESTAMP, _TIMESTAMP2):  # the library built it with utcfromtimestamp
        seconds = calendar.timegm(v.timetuple())
        return tagged("timestamp", f"{seconds}{_fraction(v.microsecond, fsp)}")
    return tagged("datetime", f"{v:%Y-%m-%d %H:%M:%S}{_fraction(v.microsecond, fsp)}")


def _time(v: datetime.timedelta, col: Any) -> dict[str, str]:
    fsp = getattr(col, "fsp", 0) or 0
    usec_total = abs(v) // datetime.timedelta(microseconds=1)
    seconds, usec = divmod(usec_total, 1_000_000)
    sign = "-" if v < datetime.timedelta(0) else ""
    return tagged("time", f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
                          f"{_fraction(usec, fsp)}")


def _text_value(v: str, col: Any) -> Any:
    """Back to the stored bytes with the encoding the library decoded them with."""
    from pymysqlreplication.row_event import RowsEvent
    encoding = "utf-8"
    if col.character_set_name is not None:
        encoding = RowsEvent.charset_to_encoding(col.character_set_name)
    try:
        return text(v.encode(encoding))
    except (LookupError, UnicodeEncodeError):
        return text(v.encode("utf-8", "surrogateescape"))


def _str_value(v: str, col: Any) -> Any:
    if col.type == _ENUM:
        return col.enum_values.index(v) if col.enum_values and v in col.enum_values else v
    if col.type == _BIT:  # the library's string of "0"/"1", most significant bit first
        return integer(int(v, 2))
    return _text_value(v, col)


def _set_value(v: set, col: Any) -> Any:
    members = col.set_values or []
    return integer(sum(1 << members.index(m) for m in v if m in members))


_BY_PYTHON_TYPE: dict[type, Callable[[Any, Any], Any]] = {
    bool: lambda v, col: v,
    int: lambda v, col: integer(v),
    float: lambda v, col: v,
    decimal.Decimal: lambda v, col: tagged("decimal", format(v, "f")),
    datetime.date: lambda v, col: tagged("date", v.isoformat()),
    datetime.datetime: _datetime,
    datetime.timedelta: _time,
    str: _str_value,
    bytes: lambda v, col: text(v),
    set: _set_value,
}


def canonical_value(value: Any, col: Any, none_source: str | None) -> Any:
    if value is None:
        if none_source in _UNREPRESENTABLE:
            return tagged("unrepresentable", none_source)
        return 0 if none_source == _EMPTY_SET else None
    convert = _BY_PYTHON_TYPE.get(type(value))
    return convert(value, col) if convert else _unmapped(value)


def _unmapped(value: Any) -> dict[str, Any]:
    """A Python form with no canonical mapping (a JsonDiff, a dict): tagged "unmapped", as the
    other adapters do, with the object's attributes rather than repr(), which may carry a memory
    address and so differ from run to run."""
    shown = vars(value) if hasattr(value, "__dict__") else value
    return tagged("unmapped", f"{type(value).__name__} {shown!r}")


def _present(bitmap: bytes, n: int) -> list[int]:
    return [i for i in range(n) if bitmap[i // 8] >> (i % 8) & 1]


def _image(values: dict[str, Any], none_sources: dict[Any, str], columns: list[Any],
           bitmap: bytes) -> dict[str, Any]:
    """The columns present in the image, in column order; names when the library has real ones."""
    items = list(values.items())
    present = _present(bitmap, len(items))
    image: dict[str, Any] = {"values": [canonical_value(items[i][1], columns[i], none_sources.get(items[i][0]))
                                        for i in present]}
    if all(columns[i].name for i in present):
        image["names"] = [items[i][0] for i in present]
    return image


def canonical_rows(event: Any) -> list[dict[str, Any]]:
    """Rows of a Write/Update/Delete/PartialUpdate rows event as canonical row images."""
    columns = event.table_map[event.table_id].columns
    rows = []
    for row in event.rows:
        if "values" in row:
            rows.append(_image(row["values"], row["none_sources"], columns, event.columns_present_bitmap))
        else:
            rows.append({
                "before_image": _image(row["before_values"], row["before_none_sources"], columns,
                                       event.columns_present_bitmap),
                "after_image": _image(row["after_values"], row["after_none_sources"], columns,
                                      event.columns_present_bitmap2)})
    return rows
