"""The `###` lines of `mysqlbinlog -vvv`: row images, one column per line.

Rows_log_event::print_verbose writes them into a footer that the tool flushes only when the
statement ends (STMT_END_F), after every header of the statement's events. So the rows arrive
after the events they belong to, with nothing marking where one event's rows end. They are
given to the event when the statement has a single rows event (the usual case) or when
mariadb-binlog's "# Number of rows: N" lines split them; otherwise the statement's last rows
event gets them all under "statement_rows".
"""
from __future__ import annotations

import re
from typing import Any

from .events import ROWS_TYPES
from .mysqlbinlog_events import TextEvent
from .mysqlbinlog_values import column_value

ROWS_CODES = frozenset(ROWS_TYPES)

# "### INSERT INTO `db`.`t`", "### UPDATE `db`.`t`", "### DELETE FROM `db`.`t`"
_STATEMENT = re.compile(r"### (INSERT INTO|UPDATE|DELETE FROM) (.*?)( VALUES \(\))?$")
_KIND = {"INSERT INTO": "INSERT", "UPDATE": "UPDATE", "DELETE FROM": "DELETE"}
# SET is the after image, WHERE the before image (Rows_log_event::print_verbose).
_IMAGE = {"### SET": "after", "### WHERE": "before"}
# "###   @N=<value> /* <type> meta=M nullable=N is_null=N */" (print_verbose_one_row, -vv and up)
_COLUMN = re.compile(r"###   @(\d+)=(.*?)(?: /\* (.+?) meta=(\d+) nullable=(\d+) is_null=(\d+) \*/)?$")
_COUNT = re.compile(r"# Number of rows: (\d+)$")


def is_rows_event(ev: TextEvent) -> bool:
    return bool(ev.type_codes) and all(c in ROWS_CODES for c in ev.type_codes)


class RowCollector:
    """Buffers the rows of a statement until the next event boundary, then hands them out."""

    def __init__(self) -> None:
        self.group: list[TextEvent] = []  # rows events whose rows have not been printed yet
        self.rows: list[dict[str, Any]] = []
        self.counts: list[int] = []  # mariadb-binlog's per-event row counts
        self.notes: list[str] = []
        self._image: list[dict[str, Any]] | None = None

    def takes(self, line: str) -> bool:
        return bool(self.rows) and _COUNT.match(line) is not None

    def feed(self, line: str) -> None:
        count = _COUNT.match(line)
        if count:
            self.counts.append(int(count[1]))
            return
        statement = _STATEMENT.match(line)
        if statement:
            row: dict[str, Any] = {"kind": _KIND[statement[1]], "table": statement[2]}
            self.rows.append(row)
            self._image = None
            return
        if line in _IMAGE and self.rows:
            self._image = self.rows[-1].setdefault(_IMAGE[line], [])
            return
        column = _COLUMN.match(line)
        if column and self._image is not None:
            self._image.append(_column(column))
        elif line.startswith("###      ") and self._image:
            # print_json_diff continues a partial JSON update on lines of its own
            last = self._image[-1]
            last["text"] += "\n" + line[len("###      "):]
            last["value"] = last["text"]
        else:
            self.notes.append(line[4:] if line.startswith("### ") else line)

    def add_event(self, ev: TextEvent) -> None:
        if is_rows_event(ev):
            self.group.append(ev)
        elif not self.rows:
            self.group.clear()  # earlier rows events that printed no rows

    def flush(self) -> None:
        if not (self.rows or self.notes):
            return
        self._assign()
        self.group.clear()
        self.rows, self.counts, self.notes, self._image = [], [], [], None

    def _assign(self) -> None:
        if not self.group:
            return
        if self.notes:
            self.group[-1].body.setdefault("notes", []).extend(self.notes)
        if len(self.group) == 1:
            self.group[0].body["rows"] = self.rows
        elif len(self.counts) == len(self.group) and sum(self.counts) == len(self.rows):
            start = 0
            for ev, n in zip(self.group, self.counts):
                ev.body["rows"] = self.rows[start:start + n]
                start += n
        else:
            self.group[-1].body["statement_rows"] = self.rows


def _column(m: re.Match[str]) -> dict[str, Any]:
    text = m[2]
    col: dict[str, Any] = {"index": int(m[1]), "text": text}
    if m[3] is not None:
        col.update(column_type=m[3], meta=int(m[4]), nullable=bool(int(m[5])),
                   is_null=bool(int(m[6])))
    col["value"] = column_value(text, m[3])
    return col
