"""tests/server_pool.py with generators/server_reuse.py: a server used by one test and handed to
the next looks as a fresh one did (schemas, accounts, binlog names, GTIDs, global variables), and
one whose global state a test changed is not handed on."""
from __future__ import annotations

import pytest

from generators.profiles import LOCAL_PROFILES

from .server_fixtures import require_image
from . import server_pool
from .server_pool import ServerPool

pytestmark = pytest.mark.server


@pytest.mark.parametrize("profile", ["mysql-9.7", "mariadb-11.8", "mysql-5.7"])
def test_a_reused_server_is_as_fresh(profile: str, monkeypatch: pytest.MonkeyPatch) -> None:
    require_image(LOCAL_PROFILES[profile])
    monkeypatch.setattr(server_pool, "REUSE", True)  # whatever SERVER_REUSE says
    pool = ServerPool()
    try:
        first = pool.acquire(LOCAL_PROFILES[profile], {})
        files_fresh = first.binlog_files()
        first.execute("CREATE DATABASE pool_t; CREATE TABLE pool_t.t (a INT PRIMARY KEY); INSERT INTO pool_t.t VALUES (1);"
                      "CREATE USER 'pool_u'@'127.0.0.1' IDENTIFIED BY 'x'; FLUSH BINARY LOGS;")
        pool.release(first)
        again = pool.acquire(LOCAL_PROFILES[profile], {})
        assert again is first and (pool.started, pool.reused) == (1, 1)
        assert again.binlog_files() == files_fresh
        assert again.scalar("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'pool_t'") == "0"
        assert again.scalar("SELECT COUNT(*) FROM mysql.user WHERE User = 'pool_u'") == "0"
        gtids = "@@gtid_binlog_pos" if profile.startswith("mariadb") else "@@gtid_executed"
        assert (again.scalar(f"SELECT {gtids}") or "") == ""
        again.execute("SET GLOBAL max_connections = 77")
        pool.release(again)
        third = pool.acquire(LOCAL_PROFILES[profile], {})
        assert third is not first and pool.started == 2, "a changed global variable is never handed on"
        pool.release(third)
    finally:
        pool.close()
