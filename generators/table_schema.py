"""The schema of the tables a case's binlog names, for case.json `tables`.

CDC clients name row columns by asking the server (information_schema.COLUMNS, SHOW FULL COLUMNS,
SHOW CREATE TABLE); `harness serve` answers those from this record. Taken from the server right
after the scenario ran, so it is the tables' final shape: a table the scenario dropped is listed
with "dropped": true, and one altered mid-scenario shows its last definition.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .server import Server

_COLUMNS_SQL = (
    "SELECT COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_KEY, "
    "CHARACTER_SET_NAME, COLLATION_NAME, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS "
    "WHERE TABLE_SCHEMA = '{db}' AND TABLE_NAME = '{table}' ORDER BY ORDINAL_POSITION")


def mapped_tables(expected_files: Iterable[Path]) -> list[tuple[str, str]]:
    """(schema, table) of every Table_map in the canonical decodes, first appearance first."""
    seen: dict[tuple[str, str], None] = {}
    for path in expected_files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if '"TABLE_MAP_EVENT"' not in line:
                continue
            body = json.loads(line).get("body", {})
            seen.setdefault((str(body.get("schema")), str(body.get("table"))), None)
    return list(seen)


def _quote(name: str) -> str:
    return name.replace("\\", "\\\\").replace("'", "\\'")


def table_entry(server: Server, db: str, table: str) -> dict[str, Any]:
    rows = server.query(_COLUMNS_SQL.format(db=_quote(db), table=_quote(table)))
    if not rows:
        return {"schema": db, "table": table, "dropped": True}
    columns = [{"name": r["COLUMN_NAME"], "type": r["COLUMN_TYPE"], "data_type": r["DATA_TYPE"],
                "nullable": r["IS_NULLABLE"] == "YES", "key": r["COLUMN_KEY"] or "",
                "charset": r["CHARACTER_SET_NAME"], "collation": r["COLLATION_NAME"],
                "default": r["COLUMN_DEFAULT"], "extra": r["EXTRA"] or ""} for r in rows]
    create = server.query(f"SHOW CREATE TABLE `{db.replace('`', '``')}`.`{table.replace('`', '``')}`")
    return {"schema": db, "table": table, "columns": columns,
            "create_table": (create[0].get("Create Table") if create else None)}


def record_tables(server: Server, case_dir: Path, expected_files: Iterable[str]) -> list[dict[str, Any]]:
    return [table_entry(server, db, t)
            for db, t in mapped_tables(case_dir / f for f in expected_files)]
