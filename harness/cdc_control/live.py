"""One case on a running real server: the account the testee logs in with, the replay of the
case's SQL through generators/' own code path (binlogs reset, one client session, FLUSH, files
copied out), and the directory `harness serve` is then given: exactly the files that server
wrote, their oracle decodes and a case.json holding the server's SHOW BINLOG EVENTS and the
schema of the tables they name, as `python -m generators generate` writes a corpus case."""
from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators import casefile, matrix
from generators.cases import Version, run_scenario
from generators.server import Server
from generators.sqlscript import Scenario, catalogue
from generators.table_schema import record_tables

from ..plugins.protocol import StreamSource
from .sample import SampleCase

USER = "cdc"
# What Debezium's MySQL connector documents for its user (REPLICATION CLIENT is BINLOG MONITOR
# on MariaDB, an alias there); RELOAD and LOCK TABLES only matter to the snapshot modes it does
# not use here, and are granted so the account is the one its documentation asks for.
GRANTS = "SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT, LOCK TABLES"


@dataclass(frozen=True)
class Account:
    user: str
    password: str


def create_account(server: Server) -> Account:
    """An account for 127.0.0.1 with the server's default authentication plugin
    (caching_sha2_password from MySQL 8.0), made before any case resets the binlogs, so no case's
    binlog holds it."""
    account = Account(USER, secrets.token_hex(8))
    server.execute(f"CREATE USER '{account.user}'@'127.0.0.1' IDENTIFIED BY '{account.password}';\n"
                   f"GRANT {GRANTS} ON *.* TO '{account.user}'@'127.0.0.1';\n")
    return account


def case_scenario(case: SampleCase) -> Scenario:
    """The scenario that made the case, with the case's own statements: what is replayed is
    exactly the SQL the case records (the scenario file gives its session settings and end)."""
    by_name = {s.name: s for s in catalogue()}
    if case.scenario not in by_name:
        raise ValueError(f"{case.name}: no scenario {case.scenario} in generators/scenarios")
    return dataclasses.replace(by_name[case.scenario],
                               statements=tuple(st["sql"] for st in case.meta["statements"]))


@dataclass(frozen=True)
class Replayed:
    """What one replay left: the served directory and its files, in order, with their sizes."""

    served_dir: Path
    files: tuple[str, ...]
    last_size: int

    def stream(self, host: str, port: int, account: Account) -> StreamSource:
        """The request both sides get: every file the replay wrote, from the first event of the
        first to the end of the last (its closing Rotate)."""
        return StreamSource(host, port, account.user, account.password, self.files[0], 4,
                            self.files[-1], self.last_size)


def replay(server: Server, version: Version, case: SampleCase, dest: Path) -> Replayed:
    """Run the case's SQL on `server` (binlogs reset first) and write `dest` for `harness serve`."""
    scenario = case_scenario(case)
    if scenario.end != "flush":
        raise ValueError(f"{case.name}: a scenario that ends with a {scenario.end} leaves no server")
    result = run_scenario(server, scenario, version, dest, matrix.SECURE_FILE_DIR)
    binlogs = []
    for name in result.files:
        binlogs.append({"name": name, "size": (dest / name).stat().st_size,
                        "expected": casefile.expected_entry(dest / name),
                        "server_events": result.server_events[name]})
    meta: dict[str, Any] = {
        "schema_version": casefile.SCHEMA_VERSION, "name": case.meta["name"],
        "server": {**case.meta["server"], "version": server.version()},
        "config": case.meta["config"], "scenario": case.meta["scenario"],
        "statements": [s.to_json() for s in result.statements],
        "files": list(result.files), "binlogs": binlogs,
        "tables": record_tables(server, dest, [b["expected"]["path"] for b in binlogs],
                                result.client_output),
    }
    casefile.write_case_json(dest, meta)
    return Replayed(dest, tuple(result.files), binlogs[-1]["size"])
