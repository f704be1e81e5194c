"""Run the real replication clients through the recording proxy against real servers and report
which commands each one sends, in order (docs/replication-clients.md is written from this).

`python -m generators record-clients [--server mysql-9.7] [--client NAME] [--json OUT]` starts a
primary, writes a few transactions, and runs each client of that flavor through a fresh
RecordingProxy; a replica client gets a second container of the same image.
"""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import docker_env, profiles, repl_user
from .cases import parse_version, reset_sql
from .recording_proxy import RecordingProxy
from .server import Server, running_server
from .tools import MYSQL_IMAGE

PRIMARY_SETTINGS = {
    "mysql": {"gtid_mode": "ON", "enforce_gtid_consistency": "ON", "binlog_format": "ROW"},
    "mariadb": {"binlog_format": "ROW"},
}
SEED_SQL = ("CREATE DATABASE rc; CREATE TABLE rc.t (id INT PRIMARY KEY, v VARCHAR(20));"
            "INSERT INTO rc.t VALUES (1, 'one'), (2, 'two'); UPDATE rc.t SET v = 'zwei' WHERE id = 2;"
            "INSERT INTO rc.t VALUES (3, 'three');")
SEED_ROWS = 3
FIRST_FILE = "binlog.000001"
ZONGJI_PACKAGE = "@vlasky/zongji@0.5.9"   # pinned: the version these records were taken with


def log(msg: str) -> None:
    print(f"[record-clients {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


@dataclass
class ClientRun:
    client: str
    server: str
    server_version: str
    outcome: str                       # "ok" or what went wrong
    connections: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass(frozen=True)
class Client:
    name: str
    flavors: tuple[str, ...]
    run: Callable[[Server, int], str]   # (primary, proxy port) -> outcome; raises on failure
    settle: float = 1.0                  # seconds to wait for the last commands to be logged


# -- the clients ----------------------------------------------------------------------------

def _python_mysql_replication(server: Server, port: int) -> str:
    from pymysqlreplication import BinLogStreamReader
    stream = BinLogStreamReader(
        connection_settings={"host": "127.0.0.1", "port": port, "user": repl_user.USER,
                             "passwd": repl_user.PASSWORD},
        server_id=101, blocking=False, log_file=FIRST_FILE, log_pos=4, resume_stream=True)
    try:
        count = sum(1 for _ in stream)
    finally:
        stream.close()
    return f"ok: {count} events"


def _python_mysql_replication_gtid(server: Server, port: int) -> str:
    """The auto_position form: COM_BINLOG_DUMP_GTID on MySQL, @slave_connect_state on MariaDB;
    the GTID set names the first transaction, so the server skips it."""
    from pymysqlreplication import BinLogStreamReader
    mariadb = server.profile.flavor == "mariadb"
    first = "0-1-1" if mariadb else f"{server.scalar('SELECT @@server_uuid')}:1"
    stream = BinLogStreamReader(
        connection_settings={"host": "127.0.0.1", "port": port, "user": repl_user.USER,
                             "passwd": repl_user.PASSWORD},
        server_id=102, blocking=False, auto_position=first, is_mariadb=mariadb)
    try:
        count = sum(1 for _ in stream)
    finally:
        stream.close()
    return f"ok: {count} events"


def _run(cmd: list[str], timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.decode(errors='replace')[-600:]}")
    return proc


def _mysqlbinlog_remote(server: Server, port: int) -> str:
    """Oracle's mysqlbinlog 9.7 from its image, on the host network (loopback only)."""
    with tempfile.TemporaryDirectory() as out:
        _run([docker_env.docker_bin(), "run", "--rm", "--network", "host", "-v", f"{out}:/out",
              MYSQL_IMAGE, "mysqlbinlog", "--read-from-remote-server", "--raw",
              "--host=127.0.0.1", f"--port={port}", f"--user={repl_user.USER}",
              f"--password={repl_user.PASSWORD}", "--get-server-public-key", "--ssl-mode=DISABLED",
              "--to-last-log", "--result-file=/out/", FIRST_FILE])
        return f"ok: {len(list(Path(out).iterdir()))} file(s) copied"


def _mariadb_binlog_remote(server: Server, port: int) -> str:
    """The host's mariadb-binlog (Debian's MariaDB client)."""
    with tempfile.TemporaryDirectory() as out:
        _run(["mariadb-binlog", "--read-from-remote-server", "--raw", "--host=127.0.0.1",
              f"--port={port}", f"--user={repl_user.USER}", f"--password={repl_user.PASSWORD}",
              "--skip-ssl", "--to-last-log", f"--result-file={out}/", FIRST_FILE])
        return f"ok: {len(list(Path(out).iterdir()))} file(s) copied"


def _wait_rows(replica: Server, status_sql: str, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if replica.scalar("SELECT COUNT(*) FROM rc.t") == str(SEED_ROWS):
                return "ok: replica applied every row"
        time.sleep(1)
    rows = replica.query(status_sql)
    errors = {k: v for k, v in (rows[0] if rows else {}).items() if "Error" in k and v}
    raise RuntimeError(f"replica did not catch up in {timeout:.0f}s: {errors}")


def _mysql_replica(server: Server, port: int, auto_position: bool) -> str:
    settings = {**PRIMARY_SETTINGS["mysql"], "server_id": "2"}
    with running_server(server.profile, settings) as replica:
        where = ("SOURCE_AUTO_POSITION=1" if auto_position
                 else f"SOURCE_LOG_FILE='{FIRST_FILE}', SOURCE_LOG_POS=4")
        replica.execute(
            f"CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT={port}, "
            f"SOURCE_USER='{repl_user.USER}', SOURCE_PASSWORD='{repl_user.PASSWORD}', "
            f"GET_SOURCE_PUBLIC_KEY=1, SOURCE_HEARTBEAT_PERIOD=5, {where}; START REPLICA;")
        try:
            return _wait_rows(replica, "SHOW REPLICA STATUS")
        finally:
            replica.execute("STOP REPLICA")


def _mariadb_replica(server: Server, port: int, use_gtid: bool) -> str:
    with running_server(server.profile, {**PRIMARY_SETTINGS["mariadb"], "server_id": "2"}) as replica:
        where = ("MASTER_USE_GTID=slave_pos" if use_gtid
                 else f"MASTER_USE_GTID=no, MASTER_LOG_FILE='{FIRST_FILE}', MASTER_LOG_POS=4")
        replica.execute(
            f"CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT={port}, "
            f"MASTER_USER='{repl_user.USER}', MASTER_PASSWORD='{repl_user.PASSWORD}', "
            f"MASTER_HEARTBEAT_PERIOD=5, {where}; START SLAVE;")
        try:
            return _wait_rows(replica, "SHOW SLAVE STATUS")
        finally:
            replica.execute("STOP SLAVE")


_ZONGJI_SCRIPT = textwrap.dedent("""\
    const ZongJi = require('@vlasky/zongji');
    const [port, user, password] = process.argv.slice(2);
    const z = new ZongJi({host: '127.0.0.1', port: Number(port), user, password});
    let n = 0;
    z.on('binlog', () => { n += 1; });
    z.on('error', (e) => { console.error(String(e)); process.exit(1); });
    z.start({startAtEnd: false, includeEvents: ['tablemap', 'writerows', 'updaterows', 'rotate']});
    setTimeout(() => { z.stop(); console.log(`events ${n}`); setTimeout(() => process.exit(0), 500); }, 4000);
    """)


def _zongji(server: Server, port: int) -> str:
    """@vlasky/zongji from npm, installed into a throwaway directory (never committed)."""
    with tempfile.TemporaryDirectory() as work:
        _run(["npm", "install", "--no-audit", "--no-fund", "--prefix", work, ZONGJI_PACKAGE],
             timeout=300)
        script = Path(work) / "run.js"
        script.write_text(_ZONGJI_SCRIPT)
        proc = _run(["node", str(script), str(port), repl_user.USER, repl_user.PASSWORD], timeout=60)
        return "ok: " + proc.stdout.decode().strip()


CLIENTS: dict[str, Client] = {c.name: c for c in (
    Client("python-mysql-replication", ("mysql", "mariadb"), _python_mysql_replication),
    Client("python-mysql-replication (auto_position)", ("mysql", "mariadb"),
           _python_mysql_replication_gtid),
    Client("mysqlbinlog 9.7 --read-from-remote-server --raw", ("mysql",), _mysqlbinlog_remote),
    Client("mariadb-binlog --read-from-remote-server --raw", ("mariadb",), _mariadb_binlog_remote),
    Client("MySQL 9.7 replica (SOURCE_AUTO_POSITION=1)", ("mysql",),
           lambda s, p: _mysql_replica(s, p, True), settle=2),
    Client("MySQL 9.7 replica (file/position)", ("mysql",),
           lambda s, p: _mysql_replica(s, p, False), settle=2),
    Client("MariaDB replica (MASTER_USE_GTID=slave_pos)", ("mariadb",),
           lambda s, p: _mariadb_replica(s, p, True), settle=2),
    Client("MariaDB replica (file/position)", ("mariadb",),
           lambda s, p: _mariadb_replica(s, p, False), settle=2),
    Client("zongji (@vlasky/zongji)", ("mysql", "mariadb"), _zongji),
)}


# -- running --------------------------------------------------------------------------------

def prepare_primary(server: Server) -> None:
    """A fresh binlog set: seed transactions, then a FLUSH so binlog.000001 is closed."""
    server.execute(reset_sql(server.profile.flavor, parse_version(server.version())))
    repl_user.ensure(server)
    server.execute(SEED_SQL)
    server.flush_logs()


def record_one(server: Server, client: Client) -> ClientRun:
    with RecordingProxy(server.port) as proxy:
        try:
            outcome = client.run(server, proxy.port)
        except Exception as exc:  # noqa: BLE001 - a failing client is a finding, recorded as such
            outcome = f"failed: {type(exc).__name__}: {exc}"
        time.sleep(client.settle)
        return ClientRun(client.name, server.profile.name, server.version(), outcome,
                         proxy.to_json())


def record(server_name: str, client_names: list[str]) -> list[ClientRun]:
    profile = profiles.get(server_name)
    chosen = [c for c in CLIENTS.values() if profile.flavor in c.flavors
              and (not client_names or c.name.split()[0] in client_names or c.name in client_names)]
    runs = []
    with running_server(profile, PRIMARY_SETTINGS[profile.flavor]) as server:
        prepare_primary(server)
        for client in chosen:
            log(f"{profile.name}: {client.name}")
            run = record_one(server, client)
            log(f"  {run.outcome}; {sum(len(c['commands']) for c in run.connections)} command(s)")
            runs.append(run)
    return runs


def add_command(sub: Any) -> None:
    p = sub.add_parser("record-clients", help="log the commands real replication clients send")
    p.add_argument("--server", action="append", default=[], metavar="PROFILE",
                   help="repeatable; default: mysql-9.7 and mariadb-10.11")
    p.add_argument("--client", action="append", default=[], metavar="NAME",
                   help="repeatable; the first word of a client name, e.g. mysqlbinlog, zongji")
    p.add_argument("--json", help="write every run's log here")
    p.add_argument("--markdown", help="write the per-client tables here")
    p.set_defaults(func=_cmd_record)


def _cmd_record(args: Any) -> int:
    from .client_report import markdown
    runs: list[ClientRun] = []
    for name in args.server or ["mysql-9.7", "mariadb-10.11"]:
        runs += record(name, args.client)
    data = [r.to_json() for r in runs]
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    text = markdown(data)
    if args.markdown:
        Path(args.markdown).write_text(text)
    else:
        print(text)
    return 0 if all(r.outcome.startswith("ok") for r in runs) else 1

