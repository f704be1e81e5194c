"""Does case.json `tables` describe the tables the binlog's Table_maps describe?

`tables` is each table's last definition (generators/table_schema.py), so it is compared with
the table's LAST Table_map: the same number of columns, and per column a DATA_TYPE that the
Table_map's type code can stand for, the same nullability, and where the Table_map carries
optional metadata the same names and signedness. A mismatch means the recorded schema is not
the one that wrote the binlog (annotate-tables then leaves the case without `tables`).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# Table_map type code (include/field_types.h) -> the information_schema DATA_TYPEs it can stand
# for. MariaDB writes JSON as BLOB (longtext), UUID/INET4/INET6 as STRING and VECTOR as VARCHAR.
_INTEGERS = {1: "tinyint", 2: "smallint", 9: "mediumint", 3: "int", 8: "bigint"}
_DATA_TYPES: dict[int, frozenset[str]] = {
    **{code: frozenset({name}) for code, name in _INTEGERS.items()},
    4: frozenset({"float"}), 5: frozenset({"double"}), 246: frozenset({"decimal"}),
    13: frozenset({"year"}), 10: frozenset({"date"}), 14: frozenset({"date"}),
    11: frozenset({"time"}), 19: frozenset({"time"}),
    12: frozenset({"datetime"}), 18: frozenset({"datetime"}),
    7: frozenset({"timestamp"}), 17: frozenset({"timestamp"}),
    16: frozenset({"bit"}), 245: frozenset({"json"}), 242: frozenset({"vector"}),
    15: frozenset({"varchar", "varbinary", "vector"}), 253: frozenset({"varchar", "varbinary"}),
    254: frozenset({"char", "binary", "uuid", "inet4", "inet6"}),
    247: frozenset({"enum"}), 248: frozenset({"set"}),
    255: frozenset({"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring",
                    "multipolygon", "geometrycollection", "geomcollection"}),
}
# BLOB: the metadata is the length's byte count, which names the size class.
_BLOB_SIZES = {1: "tiny", 2: "", 3: "medium", 4: "long"}
# STRING: the real type (ENUM, SET) is the metadata's high byte.
_STRING_REAL = {247: frozenset({"enum"}), 248: frozenset({"set"})}
_YEAR = 13  # counted among the numeric columns, and always flagged unsigned
_NUMERIC = frozenset({1, 2, 9, 3, 8, 4, 5, 246, _YEAR})


def allowed_data_types(code: int, meta: Any) -> frozenset[str]:
    """The DATA_TYPEs a Table_map column of type `code` with metadata `meta` can be."""
    if code == 252:
        size = _BLOB_SIZES.get(meta, "?") if isinstance(meta, int) else "?"
        return frozenset({f"{size}blob", f"{size}text"} | ({"json"} if size == "long" else set()))
    if code == 254 and isinstance(meta, int) and (meta >> 8) in _STRING_REAL:
        return _STRING_REAL[meta >> 8]
    return _DATA_TYPES.get(code, frozenset())


def _optional(body: dict[str, Any], name: str) -> Any:
    return next((o["value"] for o in body.get("optional_metadata") or [] if o["name"] == name), None)


def column_problems(body: dict[str, Any], columns: list[dict[str, Any]]) -> list[str]:
    """How `columns` (one `tables` entry's) differ from Table_map `body`; empty when they agree."""
    types, metas = body["column_types"], body["column_metadata"]
    if len(columns) != len(types):
        return [f"{len(columns)} columns recorded, the Table_map has {len(types)}"]
    problems = []
    names = _optional(body, "COLUMN_NAME")
    signedness = iter(_optional(body, "SIGNEDNESS") or [])
    nulls = body.get("null_bitmap") or ""
    for i, (code, meta, col) in enumerate(zip(types, metas, columns)):
        where = f"column {i + 1} {col['name']!r}"
        if col["data_type"] not in allowed_data_types(code, meta):
            problems.append(f"{where}: {col['data_type']} cannot be Table_map type {code} (meta {meta})")
        if names and names[i] != col["name"]:
            problems.append(f"{where}: the Table_map names it {names[i]!r}")
        if nulls[i:i + 1] and (nulls[i] == "1") != col["nullable"]:
            problems.append(f"{where}: nullable {col['nullable']}, the Table_map says {nulls[i] == '1'}")
        unsigned = next(signedness, None) if code in _NUMERIC else None
        if unsigned is not None and unsigned != ("unsigned" in col["type"] or code == _YEAR):
            problems.append(f"{where}: {col['type']}, the Table_map says unsigned={unsigned}")
    return problems


def problems(tables: list[dict[str, Any]], maps: Iterable[dict[str, Any]]) -> list[str]:
    """Every disagreement between `tables` and the last Table_map of each table."""
    last = {(str(b["schema"]), str(b["table"])): b for b in maps}
    recorded = {(t["schema"], t["table"]): t for t in tables}
    out = [f"{s}.{t}: in the binlog, not in `tables`" for s, t in last if (s, t) not in recorded]
    out += [f"{s}.{t}: in `tables`, no Table_map names it" for s, t in recorded if (s, t) not in last]
    for key, body in last.items():
        entry = recorded.get(key)
        if entry is None:
            continue
        if "columns" not in entry:
            out.append(f"{key[0]}.{key[1]}: no columns recorded")
            continue
        out += [f"{key[0]}.{key[1]} {p}" for p in column_problems(body, entry["columns"])]
    return out
