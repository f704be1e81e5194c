"""Reusing a running server for the next test (issue 30): a test that asks for a server of a
profile and settings gets one started earlier in the session, put back to the state of a fresh
one, instead of waiting for a new container (10-30 s each).

"Back to fresh" is checked, never assumed: the state a fresh server had (its global variables,
schemas, tables, routines, accounts, binlog file names) is recorded when it starts; after a test
the additions are removed (connections killed, schemas and accounts dropped, binlogs and GTIDs
reset, the binlog files re-opened to the same names) and the state is read again. Anything that
differs from the record (a changed global variable, a configured replica, a table added to a
schema that was there at start) makes the server unfit for reuse: it is removed and the next
test gets a new one.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from generators.server import Server, SQLError
from oracle.errors import BinlogError
from oracle.event_types import EventType
from oracle.framing import walk

SYSTEM_SCHEMAS = frozenset({"mysql", "information_schema", "performance_schema", "sys"})
# global variables that move by themselves or with the binlog: not part of "fresh"
VOLATILE = ("gtid_", "timestamp", "last_", "binlog_gtid_pos", "innodb_thread_concurrency_timer")


@dataclass(frozen=True)
class FreshState:
    """What a fresh server of one profile and settings looks like, as far as a test can change it."""

    variables: frozenset[tuple[str, str]]
    schemas: frozenset[str]
    objects: frozenset[tuple[str, str, str]]  # (kind, schema, name): tables, routines, events
    accounts: frozenset[tuple[str, str]]
    binlogs: tuple[str, ...]
    gtids: str  # gtid_executed (MySQL) or gtid_binlog_state (MariaDB): a reset sets it back
    # the body of the first binlog's Previous_gtids / Gtid_list, byte for byte: MySQL 9.7 writes
    # an empty set in the tagged format after a reset that follows a tagged GTID (a fresh server
    # writes the untagged one), which the variables above do not show
    gtid_head: bytes | None = None


def _rows(server: Server, sql: str) -> list[tuple[str, ...]]:
    """The rows of every result set of `sql`, in one client run (each docker exec costs ~0.5 s)."""
    out = server._run_client(sql, ("--batch", "--skip-column-names"), None, 120).decode(errors="replace")
    return [tuple(line.split("\t")) for line in out.splitlines()]


def _variables(server: Server) -> frozenset[tuple[str, str]]:
    return frozenset((n, v) for n, v, *_ in _rows(server, "SHOW GLOBAL VARIABLES")
                     if not n.lower().startswith(VOLATILE))


_SYSTEM = ",".join(f"'{s}'" for s in sorted(SYSTEM_SCHEMAS))
_OBJECTS = (f"SELECT 'schema', SCHEMA_NAME, '' FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ({_SYSTEM});"
            f"SELECT 'table', TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ({_SYSTEM});"
            f"SELECT 'routine', ROUTINE_SCHEMA, ROUTINE_NAME FROM information_schema.ROUTINES "
            f"WHERE ROUTINE_SCHEMA NOT IN ({_SYSTEM});"
            f"SELECT 'event', EVENT_SCHEMA, EVENT_NAME FROM information_schema.EVENTS;"
            "SELECT 'account', User, Host FROM mysql.user;")


def _objects(server: Server) -> tuple[frozenset[str], frozenset[tuple[str, str, str]], frozenset[tuple[str, str]]]:
    """(schemas, (kind, schema, name) of tables/routines/events, accounts) outside the system schemas."""
    rows = _rows(server, _OBJECTS)
    return (frozenset(r[1] for r in rows if r[0] == "schema"),
            frozenset((r[0], r[1], r[2]) for r in rows if r[0] in ("table", "routine", "event")),
            frozenset((r[1], r[2]) for r in rows if r[0] == "account"))


def _gtid_variable(server: Server) -> str:
    return "gtid_binlog_state" if server.profile.flavor == "mariadb" else "gtid_executed"


HEAD_GTID_EVENTS = frozenset({EventType.PREVIOUS_GTIDS_LOG_EVENT, EventType.GTID_LIST_EVENT})


def _gtid_head(server: Server, first: str) -> bytes | None:
    """The body of the first binlog's Previous_gtids (MySQL) or Gtid_list (MariaDB) event."""
    with tempfile.TemporaryDirectory() as tmp:
        data = server.copy_file(f"{server.binlog_dir()}/{first}", Path(tmp) / first).read_bytes()
    try:
        return next((bytes(data[e.body_start:e.body_end]) for e in walk(data, verify_checksums=False)
                     if e.header.type_code in HEAD_GTID_EVENTS), None)
    except BinlogError:  # the file's last event is being written: the head came before it
        return None


def state(server: Server) -> FreshState:
    schemas, objects, accounts = _objects(server)
    gtids = (server.scalar(f"SELECT @@GLOBAL.{_gtid_variable(server)}") or "").replace("\n", "")
    binlogs = tuple(server.binlog_files())
    head = _gtid_head(server, binlogs[0]) if binlogs else None
    return FreshState(_variables(server), schemas, objects, accounts, binlogs, gtids, head)


def _replica_configured(server: Server) -> bool:
    modern = server.profile.flavor == "mysql" and tuple(int(x) for x in server.profile.version.split(".")[:2]) >= (8, 4)
    return bool(server.query("SHOW REPLICA STATUS" if modern else "SHOW SLAVE STATUS"))


def _reset_binlogs_sql(server: Server) -> str:
    v = tuple(int(x) for x in server.profile.version.split(".")[:2])
    return "RESET BINARY LOGS AND GTIDS" if server.profile.flavor == "mysql" and v >= (8, 4) else "RESET MASTER"


def reset(server: Server, fresh: FreshState) -> str | None:
    """Put `server` back to `fresh`; None when it now matches, else why it cannot be reused."""
    try:
        if _replica_configured(server):
            return "a replica was configured"
        for (thread,) in _rows(server, "SELECT ID FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() "
                                       "AND USER NOT IN ('system user', 'event_scheduler') "
                                       "AND COMMAND NOT IN ('Daemon')"):
            try:
                server.execute(f"KILL {thread}")
            except SQLError:
                pass  # it ended meanwhile
        schemas, _objects_now, accounts = _objects(server)
        drops = [f"DROP DATABASE `{s}`;" for s in sorted(schemas - fresh.schemas)]
        drops += [f"DROP USER '{u}'@'{h}';" for u, h in sorted(accounts - fresh.accounts)]
        if drops:
            server.execute("\n".join(drops))
        # the GTIDs a fresh server had (its start-up's own transactions) come back as purged/state,
        # so the test's transactions number as on a fresh server
        restore = (f"SET GLOBAL {'gtid_binlog_state' if server.profile.flavor == 'mariadb' else 'gtid_purged'}"
                   f" = '{fresh.gtids}';" if fresh.gtids else "")
        server.execute(_reset_binlogs_sql(server) + ";" + restore + "FLUSH BINARY LOGS;" * (len(fresh.binlogs) - 1))
        after = state(server)
    except SQLError as e:
        return f"the reset failed: {e}"
    if after.variables != fresh.variables:
        changed = sorted(n for n, _ in after.variables ^ fresh.variables)
        return f"global variables changed: {', '.join(changed[:5])}"
    for what in ("schemas", "objects", "accounts", "binlogs", "gtids", "gtid_head"):
        if getattr(after, what) != getattr(fresh, what):
            return f"{what} differ from a fresh server's"
    return None
