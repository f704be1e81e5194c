"""The schema of the tables a case's binlog names, for case.json `tables`.

CDC clients name row columns by asking the server (information_schema.COLUMNS, SHOW FULL COLUMNS,
SHOW CREATE TABLE); `harness serve` answers those from this record. Taken from the server right
after the scenario ran; a table the scenario dropped comes from the snapshot of
information_schema.COLUMNS that the scenario session took just before the DROP (no SHOW CREATE
TABLE then) and is marked "dropped": true. Either way it is the table's last definition: one
altered mid-scenario shows its shape after the ALTER.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from .server import Server

Version = tuple[int, ...]
SNAPSHOT_PREFIX = "@@COLS "
SNAPSHOT_HEX_PREFIX = "@@COLX "
_SYSTEM_SCHEMAS = "'mysql', 'sys', 'information_schema', 'performance_schema'"
# JSON_OBJECT keeps any value on one output line; it arrived in MySQL 5.7.8 and MariaDB 10.2.3.
_JSON_OBJECT_SINCE = {"mysql": (5, 7, 8), "mariadb": (10, 2, 3)}
_BATCH_ESCAPES = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\"}

_COLUMNS_SQL = (
    "SELECT COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_KEY, "
    "CHARACTER_SET_NAME, COLLATION_NAME, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS "
    "WHERE TABLE_SCHEMA = '{db}' AND TABLE_NAME = '{table}' ORDER BY ORDINAL_POSITION")


def snapshot_sql(flavor: str, version: Version) -> Callable[[int], str]:
    """The query the scenario session runs before statement i when that statement drops
    something: one line per user-table column, tagged with i. A JSON_OBJECT per column where the
    server has it, else (MySQL 5.6) each field's HEX(), NULL as '-', after SNAPSHOT_HEX_PREFIX."""
    where = (f"FROM information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN ({_SYSTEM_SCHEMAS}) "
             "ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")
    if version < _JSON_OBJECT_SINCE[flavor]:
        hexed = ", ".join(f"IFNULL(HEX({col}), '-')" for _, col in _SNAPSHOT_FIELDS)
        return lambda i: f"SELECT CONCAT_WS(' ', '{SNAPSHOT_HEX_PREFIX}{i}', {hexed}) AS cols {where}"
    fields = ", ".join(f"'{key}', {col}" for key, col in _SNAPSHOT_FIELDS)
    return lambda i: f"SELECT CONCAT('{SNAPSHOT_PREFIX}{i} ', JSON_OBJECT({fields})) AS cols {where}"


_SNAPSHOT_FIELDS = (("schema", "TABLE_SCHEMA"), ("table", "TABLE_NAME"), ("name", "COLUMN_NAME"),
                    ("type", "COLUMN_TYPE"), ("data_type", "DATA_TYPE"),
                    ("nullable", "IS_NULLABLE"), ("key", "COLUMN_KEY"),
                    ("charset", "CHARACTER_SET_NAME"), ("collation", "COLLATION_NAME"),
                    ("default", "COLUMN_DEFAULT"), ("extra", "EXTRA"))


def _unescape_batch(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _BATCH_ESCAPES.get(m[1], "\\" + m[1]), text)


def snapshot_columns(client_output: str) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(schema, table) -> columns as the last snapshot before the table's DROP saw them."""
    latest: dict[tuple[str, str], tuple[int, list[dict[str, Any]]]] = {}
    for line in client_output.split("\n"):
        parsed = _snapshot_row(line)
        if parsed is None:
            continue
        tag, row = parsed
        key, snap = (str(row["schema"]), str(row["table"])), int(tag)
        if key not in latest or latest[key][0] < snap:
            latest[key] = (snap, [])
        if latest[key][0] == snap:
            latest[key][1].append(_column(row))
    return {k: cols for k, (_, cols) in latest.items()}


def _snapshot_row(line: str) -> tuple[str, dict[str, Any]] | None:
    """(snapshot tag, column fields) of one snapshot line, or None for any other line."""
    if line.startswith(SNAPSHOT_PREFIX):
        tag, _, doc = line[len(SNAPSHOT_PREFIX):].partition(" ")
        return tag, json.loads(_unescape_batch(doc))
    if line.startswith(SNAPSHOT_HEX_PREFIX):
        tag, *fields = line[len(SNAPSHOT_HEX_PREFIX):].split(" ")
        values = [None if f == "-" else bytes.fromhex(f).decode("utf-8", "surrogateescape")
                  for f in fields]
        return tag, dict(zip((key for key, _ in _SNAPSHOT_FIELDS), values))
    return None


def _column(r: dict[str, Any]) -> dict[str, Any]:
    """One column, from information_schema.COLUMNS names or a snapshot's keys."""
    def get(key: str, col: str) -> Any:
        return r[key] if key in r else r.get(col)
    return {"name": get("name", "COLUMN_NAME"), "type": get("type", "COLUMN_TYPE"),
            "data_type": get("data_type", "DATA_TYPE"),
            "nullable": get("nullable", "IS_NULLABLE") == "YES",
            "key": get("key", "COLUMN_KEY") or "", "charset": get("charset", "CHARACTER_SET_NAME"),
            "collation": get("collation", "COLLATION_NAME"),
            "default": _text_or_none(get("default", "COLUMN_DEFAULT")),
            "extra": get("extra", "EXTRA") or ""}


def _text_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def table_maps(expected_files: Iterable[Path]) -> Iterator[dict[str, Any]]:
    """The body of every Table_map in the canonical decodes, in order, those inside a MySQL
    Transaction_payload (body.events) included."""
    for path in expected_files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if '"TABLE_MAP_EVENT"' in line:
                yield from _table_map_bodies(json.loads(line))


def _table_map_bodies(event: dict[str, Any]) -> Iterator[dict[str, Any]]:
    body = event.get("body") or {}
    if event.get("type") == "TABLE_MAP_EVENT":
        yield body
    for inner in body.get("events") or []:
        yield from _table_map_bodies(inner)


def mapped_tables(expected_files: Iterable[Path]) -> list[tuple[str, str]]:
    """(schema, table) of every Table_map in the canonical decodes, first appearance first."""
    seen: dict[tuple[str, str], None] = {}
    for body in table_maps(expected_files):
        seen.setdefault((str(body.get("schema")), str(body.get("table"))), None)
    return list(seen)


def _quote(name: str) -> str:
    return name.replace("\\", "\\\\").replace("'", "\\'")


def table_entry(server: Server, db: str, table: str,
                dropped: dict[tuple[str, str], list[dict[str, Any]]]) -> dict[str, Any]:
    rows = server.query(_COLUMNS_SQL.format(db=_quote(db), table=_quote(table)))
    if not rows:
        entry: dict[str, Any] = {"schema": db, "table": table, "dropped": True}
        if (db, table) in dropped:
            entry["columns"] = dropped[(db, table)]
        return entry
    columns = [_column(r) for r in rows]
    create = server.query(f"SHOW CREATE TABLE `{db.replace('`', '``')}`.`{table.replace('`', '``')}`")
    return {"schema": db, "table": table, "columns": columns,
            "create_table": (create[0].get("Create Table") if create else None)}


def record_tables(server: Server, case_dir: Path, expected_files: Iterable[str],
                  client_output: str = "") -> list[dict[str, Any]]:
    dropped = snapshot_columns(client_output)
    return [table_entry(server, db, t, dropped)
            for db, t in mapped_tables(case_dir / f for f in expected_files)]
