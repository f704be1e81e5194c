"""What the control experiment of docs/cdc.md (tests/test_debezium_control.py: Debezium against a
real server and against harness serve serving that server's binlogs) found the primary answering
unlike the real server, each checked here without a server:

- binlog_format and binlog_row_image are the case's server's (case.json `config.settings`; for a
  bare binlog what its events show, else ROW and FULL): Debezium refuses a server that is not
  ROW/FULL;
- MySQL before 8.0.3 and MariaDB have the query cache variables Connector/J asks at connect
  (@@query_cache_size, @@query_cache_type), and tx_isolation / transaction_isolation by version;
- MariaDB 11.8 answers SHOW BINARY LOG STATUS (Debezium asks it of any version from 8.2 up; real
  10.5 and 10.11 give ERR 1064, 11.8 the status);
- SHOW CREATE TABLE of a table the case dropped is its CREATE TABLE as the binlog has it, never
  the scenario's text with an unexpanded @@PLACEHOLDER@@ (Debezium's DDL parser failed on it)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pymysql
import pytest

from harness.primary.served import load
from harness.primary.variables import system_variables
from harness.primary.written_settings import WrittenSettings
from oracle.event_types import EventType as T

from .primary_fixtures import serving

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _variables(case: str) -> dict[str, object]:
    return system_variables(load([str(CORPUS / case)]), 1, 3306)


@pytest.mark.parametrize("case, row_format, row_image", [
    ("mysql-9.7/json_partial--row-minimal", "ROW", "MINIMAL"),
    ("mariadb-10.11/load_data--statement", "STATEMENT", "FULL"),
    ("mysql-8.0/blobs_text--row-noblob", "ROW", "NOBLOB"),
    ("mariadb-11.8/ddl_dml_basic--mixed", "MIXED", "FULL"),
    ("mysql-5.6/integers--row", "ROW", "FULL"),
])
def test_a_case_is_served_with_its_servers_settings(case: str, row_format: str, row_image: str) -> None:
    variables = _variables(case)
    assert (variables["binlog_format"], variables["binlog_row_image"]) == (row_format, row_image)


@pytest.mark.parametrize("case, row_format, row_image", [
    ("mariadb-10.11/load_data--statement", "STATEMENT", "FULL"),  # its LOAD DATA and INSERTs are Queries
    ("mysql-9.7/json_partial--row-minimal", "ROW", "MINIMAL"),  # an UPDATE's before image: the key only
    ("mysql-8.0/ddl_dml_basic--mixed", "STATEMENT", "FULL"),  # MIXED that logged no unsafe statement
    ("mysql-5.6/integers--row", "ROW", "FULL"),
])
def test_a_bare_binlog_is_served_with_the_settings_its_events_show(
        case: str, row_format: str, row_image: str, tmp_path: Path) -> None:
    """No case.json: the settings come from the events (harness/primary/written_settings.py)."""
    shutil.copy(CORPUS / case / "binlog.000001", tmp_path / "binlog.000001")
    variables = system_variables(load([str(tmp_path / "binlog.000001")]), 1, 3306)
    assert (variables["binlog_format"], variables["binlog_row_image"]) == (row_format, row_image)


def test_written_settings_tell_minimal_from_noblob_and_statement_from_mixed() -> None:
    noblob, minimal, mixed = WrittenSettings(), WrittenSettings(), WrittenSettings()
    for w in (noblob, minimal, mixed):
        w.observe(T.TABLE_MAP_EVENT, {"table_id": 7, "column_types": [3, 252, 15]})
    noblob.observe(T.UPDATE_ROWS_EVENT, {"table_id": 7, "columns_before_image": "101", "columns_after_image": "111"})
    minimal.observe(T.UPDATE_ROWS_EVENT, {"table_id": 7, "columns_before_image": "100", "columns_after_image": "001"})
    mixed.observe(T.QUERY_EVENT, {"query": "/* x */ INSERT INTO t VALUES (1)"})
    mixed.observe(T.WRITE_ROWS_EVENT, {"table_id": 7, "columns_after_image": "111"})
    assert noblob.settings() == {"binlog_row_image": "NOBLOB"}
    assert minimal.settings() == {"binlog_row_image": "MINIMAL"}
    assert mixed.settings() == {"binlog_format": "MIXED"}
    ddl = WrittenSettings()
    ddl.observe(T.QUERY_EVENT, {"query": "ALTER TABLE t ADD u TIMESTAMP ON UPDATE CURRENT_TIMESTAMP"})
    assert ddl.settings() == {}


@pytest.mark.parametrize("case, present, absent", [
    ("mysql-5.6/integers--row", {"query_cache_size", "query_cache_type", "tx_isolation"}, {"transaction_isolation"}),
    ("mysql-5.7/json--row", {"query_cache_size", "tx_isolation", "transaction_isolation"}, set()),
    ("mysql-8.0/json--row", {"transaction_isolation"}, {"query_cache_size", "query_cache_type", "tx_isolation"}),
    ("mariadb-10.5/integers--row", {"query_cache_size", "query_cache_type"}, set()),
])
def test_the_variables_connector_j_asks_exist_where_the_server_has_them(
        case: str, present: set[str], absent: set[str]) -> None:
    variables = _variables(case)
    assert present <= set(variables) and not absent & set(variables)


@pytest.mark.parametrize("case, answered", [("mariadb-11.8/integers--row", True),
                                            ("mariadb-10.11/integers--row", False)])
def test_show_binary_log_status_on_mariadb(case: str, answered: bool, tmp_path: Path) -> None:
    with serving([CORPUS / case], tmp_path, password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        with conn.cursor() as cur:
            if answered:
                cur.execute("SHOW BINARY LOG STATUS")
                assert cur.fetchone()[:2] == ("binlog.000001", (CORPUS / case / "binlog.000001").stat().st_size)
            else:
                # a real 10.11's answer (docs/replication-clients.md, its capture)
                with pytest.raises(pymysql.err.ProgrammingError, match="1064") as refused:
                    cur.execute("SHOW BINARY LOG STATUS")
                assert refused.value.args[1] == (
                    "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB "
                    "server version for the right syntax to use near 'LOG STATUS' at line 1")
        conn.close()


def test_show_master_status_on_mysql_9_7_is_refused_as_9_7_refuses_it(tmp_path: Path) -> None:
    """A real 9.7's parser stops at MASTER (tests/test_mysql_common_live.py sees that text through
    mysql-binlog-connector-rust against a real 9.7)."""
    with serving([CORPUS / "mysql-9.7/integers--row"], tmp_path, password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        with conn.cursor() as cur, pytest.raises(pymysql.err.ProgrammingError, match="1064") as refused:
            cur.execute("show master status")
        conn.close()
    assert refused.value.args[1] == ("You have an error in your SQL syntax; check the manual that corresponds to "
                                     "your MySQL server version for the right syntax to use near 'master status' "
                                     "at line 1")


def test_a_dropped_tables_create_statement_is_the_one_the_server_ran() -> None:
    table = load([str(CORPUS / "mysql-9.7/enum_set_bit--row")]).table("es", "e")
    assert table is not None and table.create_statement is not None
    assert "@@" not in table.create_statement and "e2 ENUM('m1', 'm2'," in table.create_statement
    assert table.create_statement.upper().startswith("CREATE TABLE")
