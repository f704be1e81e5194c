"""The TCP account that replication clients (and the capture client) log in with.

Root in our containers only logs in over the socket; clients from outside need an account for
127.0.0.1 with a password. It gets the server's default authentication plugin
(caching_sha2_password on MySQL 9.7, mysql_native_password on MariaDB), as a real setup would.
"""
from __future__ import annotations

from .server import Server

USER = "repl"
PASSWORD = "repl-pass"
HOSTS = ("127.0.0.1", "localhost")   # TCP from 127.0.0.1 may be matched as either


def create_sql(user: str = USER, password: str = PASSWORD, legacy: bool = False) -> str:
    """`legacy`: MySQL 5.6 has no CREATE USER IF NOT EXISTS; its GRANT ... IDENTIFIED BY creates
    the account when missing (the form 8.0 removed)."""
    if legacy:
        return "".join(f"GRANT ALL ON *.* TO '{user}'@'{h}' IDENTIFIED BY '{password}';"
                       for h in HOSTS)
    return "".join(f"CREATE USER IF NOT EXISTS '{user}'@'{h}' IDENTIFIED BY '{password}';"
                   f"GRANT ALL ON *.* TO '{user}'@'{h}';" for h in HOSTS)


def ensure(server: Server, user: str = USER, password: str = PASSWORD) -> None:
    """Create the account (idempotent) without writing it to the binlog."""
    legacy = server.profile.flavor == "mysql" and server.profile.version == "5.6"
    server.execute("SET SESSION sql_log_bin = 0;" + create_sql(user, password, legacy))
