"""harness serve answers binlog_format and binlog_row_image as the server that wrote a corpus case
had them (case.json `config.settings`): Debezium refuses a real server that is not ROW/FULL, and
tests/test_debezium_control.py requires the same refusal from the primary serving its binlogs.
A bare binlog says neither: ROW and FULL, the defaults."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.primary.served import load
from harness.primary.variables import system_variables

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.mark.parametrize("case, row_format, row_image", [
    ("mysql-9.7/json_partial--row-minimal", "ROW", "MINIMAL"),
    ("mariadb-10.11/load_data--statement", "STATEMENT", "FULL"),
    ("mysql-8.0/blobs_text--row-noblob", "ROW", "NOBLOB"),
    ("mariadb-11.8/ddl_dml_basic--mixed", "MIXED", "FULL"),
    ("mysql-5.6/integers--row", "ROW", "FULL"),
])
def test_a_case_is_served_with_its_servers_settings(case: str, row_format: str, row_image: str) -> None:
    variables = system_variables(load([str(CORPUS / case)]), 1, 3306)
    assert (variables["binlog_format"], variables["binlog_row_image"]) == (row_format, row_image)


def test_a_bare_binlog_is_row_and_full(tmp_path: Path) -> None:
    shutil.copy(CORPUS / "mariadb-10.11/load_data--statement/binlog.000001", tmp_path / "binlog.000001")
    variables = system_variables(load([str(tmp_path / "binlog.000001")]), 1, 3306)
    assert (variables["binlog_format"], variables["binlog_row_image"]) == ("ROW", "FULL")
