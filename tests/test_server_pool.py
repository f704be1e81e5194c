"""tests/server_pool.py with generators/server_reuse.py: a server used by one test and handed to
the next looks as a fresh one did (schemas, accounts, binlog names, GTIDs, global variables, the
first binlog's Previous_gtids bytes), and one whose global state a test changed is not handed on."""
from __future__ import annotations

import pytest

from generators.profiles import LOCAL_PROFILES

from .server_fixtures import require_image
from . import server_pool
from .server_pool import ServerPool

pytestmark = pytest.mark.server


GTIDS = {"gtid_mode": "ON", "enforce_gtid_consistency": "ON"}


@pytest.mark.parametrize(("profile", "settings"), [("mysql-9.7", {}), ("mysql-9.7", GTIDS), ("mariadb-11.8", {}),
                                                   ("mysql-5.7", {})], ids=["mysql-9.7", "mysql-9.7-gtids",
                                                                            "mariadb-11.8", "mysql-5.7"])
def test_a_reused_server_is_as_fresh(profile: str, settings: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    require_image(LOCAL_PROFILES[profile])
    monkeypatch.setattr(server_pool, "REUSE", True)  # whatever SERVER_REUSE says
    pool = ServerPool()
    try:
        first = pool.acquire(LOCAL_PROFILES[profile], settings)
        files_fresh = first.binlog_files()
        gtids = "@@gtid_binlog_state" if profile.startswith("mariadb") else "@@gtid_executed"
        gtids_fresh = first.scalar(f"SELECT {gtids}") or ""
        first.execute("CREATE DATABASE pool_t; CREATE TABLE pool_t.t (a INT PRIMARY KEY); INSERT INTO pool_t.t VALUES (1);"
                      "CREATE USER 'pool_u'@'127.0.0.1' IDENTIFIED BY 'x'; FLUSH BINARY LOGS;")
        pool.release(first)
        again = pool.acquire(LOCAL_PROFILES[profile], settings)
        assert again is first and (pool.started, pool.reused) == (1, 1)
        assert again.binlog_files() == files_fresh
        assert again.scalar("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'pool_t'") == "0"
        assert again.scalar("SELECT COUNT(*) FROM mysql.user WHERE User = 'pool_u'") == "0"
        assert (again.scalar(f"SELECT {gtids}") or "") == gtids_fresh
        again.execute("SET GLOBAL max_connections = 77")
        pool.release(again)
        third = pool.acquire(LOCAL_PROFILES[profile], settings)
        assert third is not first and pool.started == 2, "a changed global variable is never handed on"
        if settings == GTIDS:
            # after a tagged GTID, MySQL 9.7 heads a reset binlog with an empty Previous_gtids in
            # the tagged format (a fresh server writes the untagged one): not handed on either
            third.execute("CREATE DATABASE pool_g; SET gtid_next = 'AUTOMATIC:pooltag'; "
                          "CREATE TABLE pool_g.t (a INT PRIMARY KEY); SET gtid_next = 'AUTOMATIC';")
            pool.release(third)
            fourth = pool.acquire(LOCAL_PROFILES[profile], settings)
            assert fourth is not third and pool.started == 3, "a tagged Previous_gtids head is never handed on"
            third = fourth
        pool.release(third)
    finally:
        pool.close()
