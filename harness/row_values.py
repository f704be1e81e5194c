"""Row values compared column by column, so a mismatch names the table, row, column, expected
and actual value ("body.rows[0].values[1] TINY (ints.unsigned column 1 `ti`): expected 255, got
-1"). The path keeps the shape of the event (and the column type), the place in words goes
beside it: fuzzing groups findings by path with the indexes dropped.

The expected rows come from the oracle: per row an image `{"null_bitmap", "values"}` (update
rows: `before_image`, `after_image`) whose `values` are the columns present in the image, in
column order. A parser reports the same images; it may add `"names"`, the column names beside
its values. Columns are matched
- by name, where the parser reports names and the binlog carries them (the Table_map's
  COLUMN_NAME metadata, binlog_row_metadata=FULL);
- else by position among the columns present in the image.
Only columns whose type the parser declares (Capabilities.row_values) are compared; the
null_bitmap is not compared (a NULL is a null value)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from oracle.values import plain

from .checks import ROWS_LOST, Checks
from .json_spelling import writers_spelling
from .plugins.base import ALL

IMAGES = ("values", "before_image", "after_image")


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()  # a value or field the parser did not report (compare.py re-exports it)


@dataclass(frozen=True)
class Table:
    """What the Table_map in force says about the table of a rows event."""

    name: str                      # schema.table
    type_names: tuple[str, ...]    # MYSQL_TYPE_* per column
    column_names: tuple[str, ...]  # empty when the binlog does not carry them
    signedness_known: bool = True  # the Table_map carries SIGNEDNESS (MySQL 8.0.1+, FULL metadata)

    @classmethod
    def from_table_map(cls, body: dict[str, Any]) -> "Table":
        names: tuple[str, ...] = ()
        metadata = [m for m in body.get("optional_metadata") or () if isinstance(m, dict)]
        for meta in metadata:
            if meta.get("name") == "COLUMN_NAME":
                names = tuple(str(n) for n in meta.get("value") or ())
        return cls(f"{body.get('schema')}.{body.get('table')}",
                   tuple(str(t) for t in body.get("column_type_names") or ()), names,
                   any(m.get("name") == "SIGNEDNESS" for m in metadata))


def tables_of(events: list[dict[str, Any]]) -> dict[int, Table]:
    """id() of each rows event -> the Table_map in force for its table_id at that point (by
    identity, so it holds for any subset of the list the comparison keeps)."""
    current: dict[Any, Table] = {}
    found: dict[int, Table] = {}
    for e in events:
        body = e.get("body") if isinstance(e.get("body"), dict) else {}
        if e.get("type") == "TABLE_MAP_EVENT":
            current[body.get("table_id")] = Table.from_table_map(body)
        elif "rows" in body and body.get("table_id") in current:
            found[id(e)] = current[body["table_id"]]
    return found


def _present(bitmap: Any, width: int) -> list[int]:
    if isinstance(bitmap, str) and set(bitmap) <= {"0", "1"}:
        return [i for i, bit in enumerate(bitmap) if bit == "1"]
    return list(range(width))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _same_spelling(expected: Any, actual: Any) -> bool:
    """A MySQL 5.7 JSON opaque string as the server that wrote it spells it (json_spelling)."""
    spelled = writers_spelling(expected)
    return spelled is not None and _same(plain(spelled), actual)


# Integer column widths, for reading a value the other way round (signed <-> unsigned).
_INTEGER_BITS = {"MYSQL_TYPE_TINY": 8, "MYSQL_TYPE_SHORT": 16, "MYSQL_TYPE_INT24": 24,
                 "MYSQL_TYPE_LONG": 32, "MYSQL_TYPE_LONGLONG": 64}


def _same_bits(expected: Any, actual: Any, type_name: str, table: Table) -> bool:
    """Where the binlog does not say whether an integer column is UNSIGNED (no SIGNEDNESS
    metadata: MySQL before 8.0.1, MINIMAL metadata, MariaDB), the oracle reads the stored bits
    signed, as mysqlbinlog does; a parser that knows the table's DDL (a schema lookup) may read
    them unsigned. Both are the same stored value, so either reading is accepted there, and only
    there."""
    bits = _INTEGER_BITS.get(type_name)
    if table.signedness_known or bits is None or type(expected) is not int or type(actual) is not int:
        return False
    return expected < 0 and actual == expected + (1 << bits)


def image_of(row: Any, key: str) -> dict[str, Any] | None:
    if not isinstance(row, dict):
        return None
    if key == "values":
        return row if "values" in row else None
    image = row.get(key)
    return image if isinstance(image, dict) else None


def row_diffs(exp_body: dict[str, Any], act_body: dict[str, Any], table: Table,
              declared: frozenset[str] | str, checks: Checks | None = None,
              type_name: str = "") -> Iterator[tuple[str, Any, Any, str]]:
    """(path, expected, actual, where) per differing column value; `where` names table and column.
    `checks` counts the row count, each image and each column value (harness/checks.py)."""
    checks = checks if checks is not None else Checks()
    exp_rows = exp_body.get("rows") or []
    act_rows = act_body.get("rows") if isinstance(act_body.get("rows"), list) else []
    width = len(table.type_names)
    for r, (exp_row, act_row) in enumerate(zip(exp_rows, act_rows)):
        for key in IMAGES:
            exp_image = image_of(exp_row, key)
            if exp_image is None:
                continue
            bitmap = exp_body.get("columns_before_image" if key != "after_image" else "columns_after_image",
                                  exp_body.get("columns_after_image"))
            columns = _present(bitmap, width)
            image_path = f"body.rows[{r}]" + ("" if key == "values" else f".{key}")
            field = "body.rows[]" if key == "values" else f"body.rows[].{key}"
            act_image = image_of(act_row, key)
            if act_image is None:
                checks.add((type_name, field, ""), 1, 1)
                yield image_path, "present", "<absent>", table.name
                continue
            checks.add((type_name, field, ""), 1)
            yield from _image_diffs(image_path, exp_image, act_image, columns, table, declared,
                                    _ValueCounter(checks, type_name, f"{field}.values[]"))
    checks.add((type_name, "body.rows.length", ""), 1, len(exp_rows) != len(act_rows))
    if len(exp_rows) != len(act_rows):
        yield "body.rows.length", len(exp_rows), len(act_rows), table.name


def rows_kept(exp_body: dict[str, Any], act_body: Any, checks: Checks,
              type_name: str) -> Iterator[tuple[str, Any, Any, str]]:
    """A rows event whose rows the capabilities do not claim: the rows are still there, whatever
    is claimed (the number of rows, and each row's images; `rows lost` where not); their values
    are not compared."""
    exp_rows = exp_body.get("rows") if isinstance(exp_body.get("rows"), list) else []
    act_rows = act_body.get("rows") if isinstance(act_body, dict) else None
    if not isinstance(act_rows, list):
        checks.add((type_name, "body.rows.length", ""), 1, 1)
        yield "body.rows", len(exp_rows), act_rows if act_rows is not None else ABSENT, ROWS_LOST
        return
    checks.add((type_name, "body.rows.length", ""), 1, len(exp_rows) != len(act_rows))
    if len(exp_rows) != len(act_rows):
        yield "body.rows.length", len(exp_rows), len(act_rows), ROWS_LOST
    for r, (exp_row, act_row) in enumerate(zip(exp_rows, act_rows)):
        for key in IMAGES:
            exp_image = image_of(exp_row, key)
            if exp_image is None:
                continue
            field = "body.rows[]" if key == "values" else f"body.rows[].{key}"
            checks.add((type_name, f"{field}.values[]", ""), not_compared=len(exp_image.get("values") or ()))
            lost = image_of(act_row, key) is None
            checks.add((type_name, field, ""), 1, lost)
            if lost:
                yield f"body.rows[{r}]" + ("" if key == "values" else f".{key}"), "present", "<absent>", ROWS_LOST


class _ValueCounter:
    """The value checks of one image, by column type: counted in a local dict, added once."""

    __slots__ = ("checks", "type_name", "field")

    def __init__(self, checks: Checks, type_name: str, field: str) -> None:
        self.checks, self.type_name, self.field = checks, type_name, field

    def add(self, compared: dict[str, int], failed: dict[str, int], skipped: dict[str, int]) -> None:
        for coltype in compared.keys() | skipped.keys():
            self.checks.add((self.type_name, self.field, coltype.removeprefix("MYSQL_TYPE_")),
                            compared.get(coltype, 0), failed.get(coltype, 0), skipped.get(coltype, 0))


def _image_diffs(image_path: str, exp_image: dict[str, Any], act_image: dict[str, Any], columns: list[int],
                 table: Table, declared: frozenset[str] | str,
                 counter: _ValueCounter) -> Iterator[tuple[str, Any, Any, str]]:
    exp_values = exp_image.get("values") or []
    act_values = act_image.get("values") if isinstance(act_image.get("values"), list) else []
    act_names = act_image.get("names")
    by_name = isinstance(act_names, list) and bool(table.column_names)
    compared: dict[str, int] = {}
    failed: dict[str, int] = {}
    skipped: dict[str, int] = {}
    if act_image.get("order") == "names" and not by_name:
        # values in no column order, matchable by name only, and the binlog names none
        for column, _ in zip(columns, exp_values):
            type_name = table.type_names[column] if column < len(table.type_names) else "?"
            skipped[type_name] = skipped.get(type_name, 0) + 1
        counter.add(compared, failed, skipped)
        return
    if by_name:
        actual_of = dict(zip(act_names, act_values))
    for k, (column, expected) in enumerate(zip(columns, exp_values)):
        type_name = table.type_names[column] if column < len(table.type_names) else "?"
        if declared != ALL and type_name not in declared:
            skipped[type_name] = skipped.get(type_name, 0) + 1
            continue
        compared[type_name] = compared.get(type_name, 0) + 1
        name = table.column_names[column] if column < len(table.column_names) else ""
        if by_name:
            actual = actual_of.get(name, "<absent>")
        else:
            actual = act_values[k] if k < len(act_values) else "<absent>"
        e, a = plain(expected), plain(actual)
        if not _same(e, a) and not _same_bits(e, a, type_name, table) and not _same_spelling(expected, a):
            failed[type_name] = failed.get(type_name, 0) + 1
            label = f" `{name}`" if name else ""
            yield (f"{image_path}.values[{k}] {type_name.removeprefix('MYSQL_TYPE_')}", e, a,
                   f"{table.name} column {column}{label}")
    counter.add(compared, failed, skipped)
    if not by_name and len(act_values) > len(exp_values):
        counter.checks.add((counter.type_name, f"{counter.field[:-2]}.length", ""), 1, 1)
        yield f"{image_path}.values.length", len(exp_values), len(act_values), table.name
