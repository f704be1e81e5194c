"""What MariaDB Connector/J and Debezium's MariaDB connector send, answered by `harness serve` as a
MariaDB answers it (recorded by `python -m generators record-clients --client debezium-mariadb`,
docs/primary.md): the driver's connect statement (CONCAT, session_track_system_variables),
`SET STATEMENT ... FOR <statement>` (MariaDB only: a MySQL version gives ERR 1064 as a real MySQL
does), and autocommit as the session has it in the status flags of OK packets, which the driver
reads back (PyMySQL's get_autocommit() reads the same flags)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.primary_fixtures import PASSWORD, serving

pymysql = pytest.importorskip("pymysql")

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
CONNECT = ("set sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES'),session_track_system_variables = "
           "CONCAT(@@global.session_track_system_variables,',tx_isolation'),time_zone='+00:00',NAMES utf8mb4")


def _connect(port: int):
    return pymysql.connect(host="127.0.0.1", port=port, user="root", password=PASSWORD, autocommit=None)


def test_mariadb_connector_statements(tmp_path: Path) -> None:
    with serving([CORPUS / "mariadb-11.8/ddl_dml_basic--row/binlog.000001"], tmp_path) as served:
        conn = _connect(served.port)
        try:
            with conn.cursor() as cur:
                cur.execute(CONNECT)
                cur.execute("SELECT @@session_track_system_variables, @@sql_mode")
                tracked, mode = cur.fetchone()
                assert tracked.endswith(",time_zone,tx_isolation") and mode.endswith(",STRICT_TRANS_TABLES")
                cur.execute("SET STATEMENT max_statement_time=600 FOR SELECT version()")
                assert "MariaDB" in cur.fetchone()[0]
                assert conn.get_autocommit()
                cur.execute("set autocommit=0")
                assert not conn.get_autocommit()
                cur.execute("SET STATEMENT max_statement_time=600 FOR SELECT 1")
                assert cur.fetchone()[0] == 1 and not conn.get_autocommit()  # the result set's end too
                cur.execute("set autocommit=1")
                assert conn.get_autocommit()
        finally:
            conn.close()


def test_set_statement_is_mariadb_syntax(tmp_path: Path) -> None:
    with serving([CORPUS / "mysql-9.7/ddl_dml_basic--row/binlog.000001"], tmp_path) as served:
        conn = _connect(served.port)
        try:
            with conn.cursor() as cur, pytest.raises(pymysql.err.ProgrammingError) as refused:
                cur.execute("SET STATEMENT max_statement_time=600 FOR SELECT 1")
            assert refused.value.args[0] == 1064
        finally:
            conn.close()
