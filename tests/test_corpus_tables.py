"""case.json `tables` agrees with the binlogs it annotates.

For every committed case that has `tables` (written by `generate`, or by `annotate-tables`
replaying the case on a fresh server), the last Table_map of each table names the same columns
as `tables` does: the same count, a DATA_TYPE the Table_map's type code can stand for, the same
nullability, and where the Table_map carries optional metadata the same names and signedness
(generators/table_check.py). Every Table_map's table is there, and no other.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators import casefile, table_check
from generators.capture_in_place import file_covered
from generators.table_schema import table_maps

CASES = casefile.iter_case_dirs()
ANNOTATED = [d for d in CASES if "tables" in casefile.read_case(d)]


def _maps(case_dir: Path) -> list[dict]:
    case = casefile.read_case(case_dir)
    return list(table_maps(case_dir / f["expected"]["path"] for f in case["binlogs"]))


@pytest.mark.parametrize("case_dir", ANNOTATED, ids=lambda d: f"{d.parent.name}/{d.name}")
def test_tables_agree_with_the_table_maps(case_dir: Path) -> None:
    tables = casefile.read_case(case_dir)["tables"]
    assert table_check.problems(tables, _maps(case_dir)) == []


def test_every_case_is_annotated() -> None:
    """annotate-tables replayed every case, shutdown ones included (docs/corpus.md)."""
    missing = sorted(f"{d.parent.name}/{d.name}" for d in set(CASES) - set(ANNOTATED))
    assert not missing and len(CASES) >= 173, missing


def test_a_changed_column_is_caught() -> None:
    """The check fails on a column type, a column count, a name and a missing table."""
    case_dir = next(d for d in ANNOTATED if d.name == "replica_apply--row")
    tables, maps = casefile.read_case(case_dir)["tables"], _maps(case_dir)
    first = tables[0]
    retyped = [{**first, "columns": [{**first["columns"][0], "data_type": "varchar"},
                                     *first["columns"][1:]]}, *tables[1:]]
    shorter = [{**first, "columns": first["columns"][:-1]}, *tables[1:]]
    renamed = [{**first, "columns": [{**first["columns"][0], "name": "other"},
                                     *first["columns"][1:]]}, *tables[1:]]
    assert any("cannot be Table_map type" in p for p in table_check.problems(retyped, maps))
    assert any("columns recorded" in p for p in table_check.problems(shorter, maps))
    assert any("names it" in p for p in table_check.problems(renamed, maps))
    assert any("not in `tables`" in p for p in table_check.problems(tables[1:], maps))


CAPTURED = [d for d in CASES if (d / "capture.json").exists()]


@pytest.mark.parametrize("case_dir", CAPTURED, ids=lambda d: f"{d.parent.name}/{d.name}")
def test_each_capture_carries_the_case_files_whole(case_dir: Path) -> None:
    """The non-blocking dump sent every event of every case file with the file's bytes (only
    MariaDB's left-out Annotate_rows may be missing): the capture is of these files."""
    case = casefile.read_case(case_dir)
    doc = json.loads((case_dir / "capture.json").read_text(encoding="utf-8"))
    assert doc["files"] == case["files"]
    assert file_covered(doc, case_dir, case["server"]["flavor"]) == []
    assert case["capture"]["sha256"] == casefile.sha256_file(case_dir / "capture.json")
