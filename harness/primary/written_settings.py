"""The writing server's binlog_format and binlog_row_image as its files show them, for binlogs no
case.json describes (an external binlog): a client checks these variables before it dumps
(Debezium refuses a server whose binlog_format is not ROW or whose binlog_row_image is not FULL),
so a primary that answered ROW / FULL for a statement-logged or MINIMAL-image file would let it
stream what the real server makes it refuse, and read rows it cannot read (docs/findings.md,
Debezium: gh-ost's mysql-bin.000066, rust_mysql_common's rpl_cross_version_...)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oracle.codecs.types import ColumnType as C
from oracle.event_types import EventType as T
from oracle.events import ROWS_TYPES as EVENT_ROWS_TYPES

ROWS_TYPES = frozenset(EVENT_ROWS_TYPES)
# A Query that holds DML: the server logged the statement (binlog_format STATEMENT, or MIXED).
DML_WORD = re.compile(rb"(?i)\b(?:insert|update|delete|replace|load)\b")
_DML_STATEMENT = re.compile(r"\s*(?:/\*.*?\*/\s*)*(?:INSERT|UPDATE|DELETE|REPLACE|LOAD\s+DATA)\b", re.I | re.S)
# Column types binlog_row_image=NOBLOB may leave out of an image (BLOB/TEXT, JSON, GEOMETRY).
_BLOB_TYPES = frozenset({C.JSON, C.TINY_BLOB, C.MEDIUM_BLOB, C.LONG_BLOB, C.BLOB, C.GEOMETRY})


@dataclass
class WrittenSettings:
    """What the events say of the settings; observe each Table_map, Query and rows event."""
    statements: bool = False  # a DML statement was logged as a Query
    rows: bool = False  # a rows event was logged
    absent_types: set[int] = field(default_factory=set)  # types of columns an image left out
    column_types: dict[int, list[int]] = field(default_factory=dict)  # table_id -> Table_map types

    def observe(self, type_code: int, body: dict[str, Any]) -> None:
        if type_code == T.TABLE_MAP_EVENT:
            self.column_types[int(body["table_id"])] = [int(t) for t in body.get("column_types") or []]
        elif type_code in (T.QUERY_EVENT, T.QUERY_COMPRESSED_EVENT):
            self.statements |= isinstance(body.get("query"), str) and _DML_STATEMENT.match(body["query"]) is not None
        elif type_code in ROWS_TYPES:
            self.rows = True
            types = self.column_types.get(int(body.get("table_id", -1)), [])
            for key in ("columns_before_image", "columns_after_image"):
                bits = body.get(key)
                if isinstance(bits, str):
                    self.absent_types.update(types[i] if i < len(types) else -1 for i, b in enumerate(bits) if b == "0")

    def settings(self) -> dict[str, str]:
        """binlog_format and binlog_row_image where the events show them (else nothing: the
        primary answers ROW and FULL, which no event contradicts)."""
        out: dict[str, str] = {}
        if self.statements:
            out["binlog_format"] = "MIXED" if self.rows else "STATEMENT"
        if self.absent_types:
            out["binlog_row_image"] = "NOBLOB" if self.absent_types <= _BLOB_TYPES else "MINIMAL"
        return out
