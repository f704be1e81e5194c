"""Each finding of docs/findings.md about a Node peer, shown with the library ALONE (no adapter,
no harness primary) against a real MySQL 9.7 or MariaDB 10.11, and, for the entries of the MySQL
5.6 / 5.7 / 8.0 cases, against a real server of that version: the same script
(tests/library_alone/zongji.js or go_mysql.js) runs once on the statement that shows the
defect and once on a control statement where the library is right, so a test fails if the
defect is fixed upstream or if the script stops reading at all."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from generators.server import Server
from tests.library_alone.node import GO_JS, GO_NODE, POWERSYNC, VLASKY, ZONGJI, Lines, rows
from tests.library_alone.servers import lazy_servers
from tests.peers_fixtures import installed, node_env, package_dir  # noqa: F401 (a fixture)

pytestmark = pytest.mark.server

SCRIPTS = Path(__file__).parent / "library_alone"
USER, PASSWORD = "alone", "alone-pw"


@dataclass(frozen=True)
class Finding:
    """A defect (or documented limit) and its control: each a statement over table {t}, run in a
    binlog of its own, and what the library alone reports for it."""
    name: str
    package: str
    server: str  # "mysql" or "mariadb"
    setup: str  # CREATE TABLE {t} ...
    defect: str
    shows_defect: Callable[[Lines], bool]
    control: str
    right: Callable[[Lines], bool]
    sql_first: bool = False  # the defect is written before the library connects (see run_alone)


@pytest.fixture(scope="module")
def servers(installed: None) -> Iterator[Callable[[str], Server]]:
    """servers(kind) -> that server ("mysql": MySQL 9.7, "mariadb": MariaDB 10.11, "mysql-5.6",
    "mysql-5.7", "mysql-8.0", "mariadb-11.8": those versions with their defaults; all in row format;
    and the servers of SETTINGS, below)."""
    row = {"binlog_format": "ROW"}
    with lazy_servers({"mysql": ("mysql-9.7", {}), "mariadb": ("mariadb-10.11", row), "mysql-5.6": ("mysql-5.6", row),
                       "mysql-5.7": ("mysql-5.7", row), "mysql-8.0": ("mysql-8.0", {}),
                       "mariadb-11.8": ("mariadb-11.8", row),
                       **{s.kind: s.server for s in SETTINGS}}, USER, PASSWORD) as get:
        yield get


def _status(server: Server) -> dict[str, Any]:
    """The current binlog file and position (MySQL renamed the statement in 8.2)."""
    renamed = server.profile.flavor == "mysql" and tuple(map(int, server.profile.version.split("."))) >= (8, 2)
    sql = "SHOW BINARY LOG STATUS" if renamed else "SHOW MASTER STATUS"
    return server.query(sql)[0]


def run_alone(package: str, server: Server, sql: str, user: str = USER, password: str = PASSWORD,
              env: dict[str, str] | None = None, sql_first: bool = False) -> Lines:
    """sql run in a binlog of its own, read by the library's own script: its JSON lines, then
    {"stderr": ...}. A ZongJi fork reads the range once written. A go-mysql wrapper is started
    first and sql run once it listens (it prints {"ready": true}), unless sql_first: rows
    written before it connects may come with its connect_ok, and be lost (a finding, below)."""
    pkg = str(package_dir(package))
    server.execute("FLUSH BINARY LOGS")
    start = _status(server)
    go = package in (GO_JS, GO_NODE)
    if not go or sql_first:
        server.execute(sql)
    if go:
        script, arg = "go_mysql.js", {"package_dir": pkg, "quiet_ms": 3000, "config": {
            "hostname": "127.0.0.1", "port": server.port, "username": user, "password": password,
            "tableRegexes": [".*\\..*"], "binlogPosition": {"name": start["File"], "position": int(start["Position"])}}}
    else:
        script, arg = "zongji.js", {"package_dir": pkg, "quiet_ms": 5000, "end_position": int(_status(server)["Position"]),
                                    "start": {"filename": start["File"], "position": int(start["Position"])},
                                    "connection": {"host": "127.0.0.1", "port": server.port, "user": user,
                                                   "password": password}}
    # DEBUG: go-mysql's wrappers log what the Go side wrote to stderr (a panic) only through `debug`.
    proc = subprocess.Popen(["node", str(SCRIPTS / script), json.dumps(arg)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**node_env(), "DEBUG": "mysql_binlog", **(env or {})})
    first = []
    if go and not sql_first:
        first = [json.loads(proc.stdout.readline() or '{"ready": false}')]
        if first == [{"ready": True}]:
            first = []
            server.execute(sql)
    out, err = proc.communicate(timeout=90)
    lines = [json.loads(ln) for ln in out.splitlines() if ln.strip()]
    # Node may die of the library's unhandled 'error' (the connect_ok race): its exit status is kept.
    return first + [ln for ln in lines if ln != {"ready": True}] + [{"stderr": err, "status": proc.returncode}]


# ---- what the scripts print ---------------------------------------------------------------
def column(name: str, lines: Lines) -> list[Any]:
    return [r[name] for r in rows(lines)]


def error(lines: Lines) -> str:
    """What the library reported as an error, and what it logged (the last line: stderr)."""
    return " ".join(ln.get("error", "") for ln in lines[:-1]) + " " + lines[-1]["stderr"]


def end(lines: Lines) -> str | None:
    return lines[-2].get("end") if len(lines) > 1 else None


def ended_cleanly(lines: Lines) -> bool:
    return (lines[-1]["status"] == 0 and not any("error" in ln for ln in lines)
            and end(lines) in ("reached", "quiet", "close"))


def values(name: str, *want: Any) -> Callable[[Lines], bool]:
    return lambda lines: lines[-1]["status"] == 0 and column(name, lines) == list(want)


def updated(name: str, *want: Any) -> Callable[[Lines], bool]:
    """go-mysql: the new values of the updated rows (go-mysql-js reports one {old, new}, the
    other wrapper a list of them)."""
    def pairs(ln: dict[str, Any]) -> list[dict[str, Any]]:
        update = ln.get("event", {}).get("update", [])
        return update if isinstance(update, list) else [update]
    return lambda lines: lines[-1]["status"] == 0 and [
        pair["new"][name] for ln in lines[:-1] for pair in pairs(ln)] == list(want)


def failed_with(text: str) -> Callable[[Lines], bool]:
    return lambda lines: text in error(lines)


def silent_loss(lines: Lines) -> bool:
    return not rows(lines) and ended_cleanly(lines)


# ---- the findings ---------------------------------------------------------------------------
LATIN1 = "CREATE TABLE {t} (id INT PRIMARY KEY, v VARCHAR(20) CHARACTER SET latin1, x TEXT CHARACTER SET latin1)"
SET64 = ",".join(f"'m{i}'" for i in range(1, 65))
FINDINGS = [
    *[Finding(f"year-zero-as-1900[{p}{'' if s == 'mysql' else ', ' + s}]", p, s,
              "CREATE TABLE {t} (id INT PRIMARY KEY, y YEAR)",
              "INSERT INTO {t} VALUES (1, 0)", values("y", 1900),
              "INSERT INTO {t} VALUES (2, 2024)", values("y", 2024))
      for p, s in ((VLASKY, "mysql"), (POWERSYNC, "mysql"), (VLASKY, "mysql-5.7"), (POWERSYNC, "mysql-5.7"),
                   (ZONGJI, "mysql-5.7"))],
    *[Finding(f"double-zero-misread{'' if s == 'mariadb' else '[' + s + ']'}", ZONGJI, s,
              "CREATE TABLE {t} (id INT PRIMARY KEY, f DOUBLE)",
              "INSERT INTO {t} VALUES (1, 0)", values("f", 1.1125369292536007e-308),
              "INSERT INTO {t} VALUES (2, 1.5)", values("f", 1.5)) for s in ("mariadb", "mysql-5.7")],
    *[Finding(f"latin1-varchar-as-utf8[{p}{', ' + s if s.startswith('mysql-') else ''}]", p, s, LATIN1,
              "INSERT INTO {t} (id, v) VALUES (1, 'd\u00e9j\u00e0 vu')", values("v", "d\ufffdj\ufffd vu"),
              "INSERT INTO {t} (id, x) VALUES (2, 'd\u00e9j\u00e0 vu')", values("x", "d\u00e9j\u00e0 vu"))
      for p, s in ((POWERSYNC, "mysql"), (ZONGJI, "mariadb"), (POWERSYNC, "mysql-5.7"), (ZONGJI, "mysql-5.7"))],
    *[Finding(f"decimal-as-js-number[{p}{', ' + s if s.startswith('mysql-') else ''}]", p, s,
              "CREATE TABLE {t} (id INT PRIMARY KEY, d DECIMAL(30,10))",
              "INSERT INTO {t} VALUES (1, 12345678901234567890.1234567891)", values("d", 12345678901234567000),
              "INSERT INTO {t} VALUES (2, -1234.5678)", values("d", -1234.5678))
      for p, s in ((POWERSYNC, "mysql"), (ZONGJI, "mariadb"), (POWERSYNC, "mysql-5.7"), (ZONGJI, "mysql-5.7"))],
    *[Finding(f"json-opaque-ends-stream{'' if s == 'mysql' else '[' + s + ']'}", POWERSYNC, s,
              "CREATE TABLE {t} (id INT PRIMARY KEY, j JSON)",
              "INSERT INTO {t} VALUES (1, JSON_OBJECT('b', CAST('ab' AS BINARY)))",
              failed_with("JSON Opaque Type Not Implemented: 15"),
              "INSERT INTO {t} VALUES (2, JSON_OBJECT('t', CAST('12:00:00' AS TIME)))",
              values("j", '{"t":"12:00:00.000000"}')) for s in ("mysql", "mysql-8.0")],
    Finding("compressed-transaction-lost", POWERSYNC, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY)",
            "SET SESSION binlog_transaction_compression = ON; INSERT INTO {t} VALUES (1)", silent_loss,
            "INSERT INTO {t} VALUES (2)", values("id", 2)),
    Finding("compressed-transaction-refused (documented limit)", VLASKY, "mysql",
            "CREATE TABLE {t} (id INT PRIMARY KEY)",
            "SET SESSION binlog_transaction_compression = ON; INSERT INTO {t} VALUES (1)",
            failed_with("TRANSACTION_PAYLOAD_EVENT"),
            "INSERT INTO {t} VALUES (2)", values("id", 2)),
    *[Finding(f"bigint-beyond-2^53[{p}]", p, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY, b BIGINT)",
              "INSERT INTO {t} VALUES (1, -9007199254740993)", values("b", -9007199254740992),
              "INSERT INTO {t} VALUES (2, 9007199254740991)", values("b", 9007199254740991)) for p in (GO_JS, GO_NODE)],
    *[Finding(f"non-utf8-bytes-as-u+fffd[{p}]", p, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY, b VARBINARY(8))",
              "INSERT INTO {t} VALUES (1, 0x00ff10)", values("b", "\x00\ufffd\x10"),
              "INSERT INTO {t} VALUES (2, 'h\u00e9llo')", values("b", "h\u00e9llo")) for p in (GO_JS, GO_NODE)],
    *[Finding(f"empty-64-member-set[{p}{'' if s == 'mysql' else ', ' + s}]", p, s,
              f"CREATE TABLE {{t}} (id INT PRIMARY KEY, s SET({SET64}), n SET('a','b','c','d','e','f','g','h','i'))",
              "INSERT INTO {t} (id, s) VALUES (1, '')", failed_with("out of range"),
              "INSERT INTO {t} (id, n) VALUES (2, '')", values("id", 2))
      for p in (GO_JS, GO_NODE) for s in ("mysql", "mysql-8.0")],
    *[Finding(f"partial-json-refused[{p}] (limit)", p, "mysql-8.0",
              "CREATE TABLE {t} (id INT PRIMARY KEY, j JSON); INSERT INTO {t} VALUES (1, '{{\"a\": 1}}')",
              "SET SESSION binlog_row_value_options = PARTIAL_JSON; UPDATE {t} SET j = JSON_SET(j, '$.a', 3) WHERE id = 1",
              failed_with("PartialUpdateRowsEvent not supported now"),
              "UPDATE {t} SET j = JSON_SET(j, '$.a', 2) WHERE id = 1", updated("j", '{"a":2}'))
      for p in (GO_JS, GO_NODE)],
    Finding("first-row-only", GO_JS, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY)",
            "INSERT INTO {t} VALUES (1), (2)", values("id", 1),
            "INSERT INTO {t} VALUES (3)", values("id", 3)),
    *[Finding(f"rows-narrower-than-schema-panic[{p}]", p, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY)",
              "INSERT INTO {t} VALUES (1); ALTER TABLE {t} ADD COLUMN c INT", failed_with("index out of range"),
              "INSERT INTO {t} VALUES (2)", values("id", 2), sql_first=True) for p in (GO_JS, GO_NODE)],
    *[Finding(f"mariadb-compressed-rows-not-decoded[{p}]", p, "mariadb",
              "CREATE TABLE {t} (id INT PRIMARY KEY, v VARCHAR(100))",
              "SET GLOBAL log_bin_compress = ON; SET GLOBAL log_bin_compress_min_len = 10; "
              "INSERT INTO {t} VALUES (1, REPEAT('a', 100)); SET GLOBAL log_bin_compress = OFF",
              failed_with("unexpected"), "INSERT INTO {t} VALUES (2, REPEAT('b', 100))", values("id", 2))
      for p in (GO_JS, GO_NODE)],
    # MariaDB's VECTOR travels as a binary VARCHAR: its float bytes read as text, as VARBINARY above.
    *[Finding(f"mariadb-vector-bytes-as-u+fffd[{p}]", p, "mariadb-11.8",
              "CREATE TABLE {t} (id INT PRIMARY KEY, v VECTOR(3) NOT NULL)",
              "INSERT INTO {t} VALUES (1, VEC_FromText('[1, 2.5, -3]'))",
              values("v", "\x00\x00\ufffd?\x00\x00 @\x00\x00@\ufffd"),
              "INSERT INTO {t} VALUES (2, VEC_FromText('[0, 0, 0]'))", values("v", "\x00" * 12))
      for p in (GO_JS, GO_NODE)],
    # Their Config has no flavor: canal's default "mysql" never sets @mariadb_slave_capability.
    *[Finding(f"mariadb-xa-without-slave-capability[{p}]", p, "mariadb", "CREATE TABLE {t} (id INT PRIMARY KEY)",
              "XA START 'x'; INSERT INTO {t} VALUES (1); XA END 'x'; XA PREPARE 'x'; XA COMMIT 'x'",
              failed_with("Failed to replace GTID event"), "INSERT INTO {t} VALUES (2)", values("id", 2))
      for p in (GO_JS, GO_NODE)],
    *[Finding(f"vector-not-decoded[{p}]", p, "mysql", "CREATE TABLE {t} (id INT PRIMARY KEY, v VECTOR(2), n INT)",
              "INSERT INTO {t} (id, v) VALUES (1, STRING_TO_VECTOR('[1,2]'))", failed_with("unexpected"),
              "INSERT INTO {t} (id, n) VALUES (2, 5)", values("n", 5)) for p in (GO_JS, GO_NODE)],
]


def _table(finding: Finding) -> str:
    return "f.t_" + "".join(c if c.isalnum() else "_" for c in finding.name)[:50]


@pytest.mark.parametrize("finding", FINDINGS, ids=[f.name for f in FINDINGS])
def test_finding_with_the_library_alone(finding: Finding, servers) -> None:
    server = servers(finding.server)
    t = _table(finding)
    server.execute(finding.setup.format(t=t))
    # The control first: on a fresh table, before a defect may have ended anything. It is written
    # once the library listens: rows written before a go-mysql wrapper connects may come with its
    # connect_ok and be lost (the connect_ok race, a finding of its own), which no control may meet.
    control = run_alone(finding.package, server, finding.control.format(t=t))
    assert finding.right(control), control
    shown = run_alone(finding.package, server, finding.defect.format(t=t), sql_first=finding.sql_first)
    assert finding.shows_defect(shown), shown


def test_zongji_cannot_log_in_to_mysql_9(servers) -> None:
    """zongji 0.5.1 (mysqljs/mysql) has no caching_sha2_password, MySQL 9's only password
    plugin; the control: the same script reads MariaDB 10.11 (mysql_native_password)."""
    for kind, ok in (("mariadb", True), ("mysql", False)):
        server = servers(kind)
        server.execute("CREATE TABLE IF NOT EXISTS f.login (id INT PRIMARY KEY)")
        lines = run_alone(ZONGJI, server, f"INSERT INTO f.login VALUES ({int(ok)})")
        assert (column("id", lines) == [1]) if ok else "ER_NOT_SUPPORTED_AUTH_MODE" in error(lines), lines


def test_zongji_cannot_log_in_to_mysql_8_with_its_default_plugin(servers) -> None:
    """MySQL 8.0 creates accounts with caching_sha2_password by default (the account the served
    8.0.31 cases log in with): zongji 0.5.1 cannot log in with one. Its mysqljs client never
    announces CLIENT_PLUGIN_AUTH, so the server refuses it at once (ER_NOT_SUPPORTED_AUTH_MODE);
    the primary answers the same since this was seen. The control: the same script on the same
    server with a mysql_native_password account reads rows."""
    server = servers("mysql-8.0")
    server.execute("CREATE TABLE f.login8 (id INT PRIMARY KEY); "
                   "CREATE USER 'native'@'%' IDENTIFIED WITH mysql_native_password BY 'native-pw'; "
                   "GRANT ALL ON *.* TO 'native'@'%'")
    assert server.scalar(f"SELECT plugin FROM mysql.user WHERE user = '{USER}' AND host = '%'") == "caching_sha2_password"
    control = run_alone(ZONGJI, server, "INSERT INTO f.login8 VALUES (1)", user="native", password="native-pw")
    assert column("id", control) == [1], control
    shown = run_alone(ZONGJI, server, "INSERT INTO f.login8 VALUES (2)")
    assert "ER_NOT_SUPPORTED_AUTH_MODE" in error(shown) and not rows(shown), shown


def test_powersync_rsa_password_of_20_characters(servers) -> None:
    """@powersync/mysql-zongji (mysql2) fails caching_sha2_password's RSA exchange (no TLS) for a
    password of 20 characters or more; the control: a password of 16 logs in."""
    server = servers("mysql")
    server.execute("CREATE TABLE f.pw (id INT PRIMARY KEY)")
    for password, ok in (("p" * 16, True), ("p" * 24, False)):
        user = f"pw{len(password)}"
        server.execute(f"CREATE USER '{user}'@'%' IDENTIFIED WITH caching_sha2_password BY '{password}'; "
                       f"GRANT ALL ON *.* TO '{user}'@'%'")
        lines = run_alone(POWERSYNC, server, f"INSERT INTO f.pw VALUES ({len(password)})", user=user, password=password)
        assert (column("id", lines) == [len(password)]) if ok else bool(error(lines)), lines


@pytest.mark.parametrize("package", (ZONGJI, POWERSYNC))
def test_mariadb_dummy_events_without_slave_capability(package: str, servers) -> None:
    """zongji and @powersync/mysql-zongji never set @mariadb_slave_capability: MariaDB sends them
    its GTID, Annotate_rows and checkpoint events as '# Dummy event' / BEGIN Query events. The
    control: @vlasky/zongji, which sets it, gets none from the same range."""
    server = servers("mariadb")
    table = f"f.dummy_{len(package)}"
    server.execute(f"CREATE TABLE {table} (id INT PRIMARY KEY)")
    dummies = [[ln for ln in run_alone(p, server, f"INSERT INTO {table} VALUES ({i})")
                if "Dummy event" in str(ln.get("query", ""))] for i, p in enumerate((VLASKY, package))]
    assert dummies[0] == [] and dummies[1], dummies


@pytest.mark.parametrize("kind", ("mariadb", "mysql-5.6", "mysql-5.7"))
def test_zongji_never_dumps_without_checksums(kind: str, servers) -> None:
    """zongji 0.5.1 with binlog_checksum=NONE: it opens its binlog connection only after it set
    @master_binlog_checksum, so with NONE no event ever comes (the served `*--row-minimal` cases
    of MySQL 5.6 / 5.7 are written without checksums). The control: with CRC32, rows."""
    server = servers(kind)
    server.execute("CREATE TABLE f.crc (id INT PRIMARY KEY)")
    control = run_alone(ZONGJI, server, "INSERT INTO f.crc VALUES (1)")
    server.execute("SET GLOBAL binlog_checksum = NONE")
    try:
        shown = run_alone(ZONGJI, server, "INSERT INTO f.crc VALUES (2)")
    finally:
        server.execute("SET GLOBAL binlog_checksum = CRC32")
    assert column("id", control) == [1]
    assert shown[:-1] == [{"end": "quiet"}]


BUSY_AFTER_SPAWN = SCRIPTS / "busy_after_spawn.js"  # Node's event loop busy 3 s after the spawn


@pytest.mark.parametrize("package", (GO_JS, GO_NODE))
def test_go_mysql_rows_that_come_with_connect_ok_are_lost(package: str, servers) -> None:
    """create() resolves on the Go side's connect_ok, but the Go side writes the first rows right
    after it: when they reach Node in the same read (Node busy for a moment), they are emitted
    before the README's caller can listen. The control: the same script, Node not busy."""
    server = servers("mariadb")
    table = f"f.connect_{len(package)}"
    server.execute(f"CREATE TABLE {table} (id INT PRIMARY KEY)")
    control = run_alone(package, server, f"INSERT INTO {table} VALUES (1)", sql_first=True)
    shown = run_alone(package, server, f"INSERT INTO {table} VALUES (2)", sql_first=True,
                      env={"NODE_OPTIONS": f"-r {BUSY_AFTER_SPAWN}"})
    assert column("id", control) == [1]
    assert rows(shown) == [] and end(shown) == "quiet", shown


@dataclass(frozen=True)
class ServerSetting:
    """A server started with `variable = value` (servers(kind)), the ROW / FULL server of the
    same flavor its control runs on, and what create() is rejected with there (None: the row is read)."""
    kind: str
    server: tuple[str, dict[str, str]]  # (profile, settings) as lazy_servers takes them
    control_kind: str
    variable: str
    value: str
    refusal: str | None


SETTINGS = (
    ServerSetting("mysql-statement", ("mysql-9.7", {"binlog_format": "STATEMENT"}), "mysql", "binlog_format",
                  "STATEMENT", "binlog must ROW format, but STATEMENT now"),
    ServerSetting("mariadb-mixed", ("mariadb-10.11", {}), "mariadb", "binlog_format", "MIXED",  # its default
                  "binlog must ROW format, but MIXED now"),
    ServerSetting("mysql-minimal", ("mysql-9.7", {"binlog_row_image": "MINIMAL"}), "mysql", "binlog_row_image",
                  "MINIMAL", None),
    ServerSetting("mysql-noblob", ("mysql-9.7", {"binlog_row_image": "NOBLOB"}), "mysql", "binlog_row_image",
                  "NOBLOB", None),
)


def create_rejected(lines: Lines) -> str | None:
    """What the wrapper's create() was rejected with (go_mysql.js), if it was."""
    return next((ln["error"] for ln in lines if ln.get("rejected") == "create"), None)


@pytest.mark.parametrize("setting", SETTINGS, ids=[f"{s.variable}={s.value}" for s in SETTINGS])
@pytest.mark.parametrize("package", (GO_JS, GO_NODE))
def test_go_mysql_canal_requires_row_format_not_a_row_image(package: str, setting: ServerSetting, servers) -> None:
    """canal (go-mysql v1.11.0 in both wrappers) refuses a server whose GLOBAL binlog_format is not
    ROW (`checkBinlogRowFormat`, in NewCanal), so create() is rejected, as the served `*--statement`
    and `*--mixed` cases are; it never checks binlog_row_image (its `CheckBinlogRowImage` is a
    public method canal does not call, and neither wrapper's binary links it): MINIMAL and NOBLOB
    are read. The control: the same script on the ROW / FULL server of the same flavor reads the row."""
    table = f"f.setting_{setting.value.lower()}_{len(package)}"
    control_server, server = servers(setting.control_kind), servers(setting.kind)
    assert server.scalar(f"SELECT @@GLOBAL.{setting.variable}") == setting.value
    assert control_server.scalar(f"SELECT @@GLOBAL.{setting.variable}") in ("ROW", "FULL")
    for s in (control_server, server):
        s.execute(f"CREATE TABLE {table} (id INT PRIMARY KEY, n INT, b BLOB)")
    control = run_alone(package, control_server, f"INSERT INTO {table} (id, n) VALUES (1, 5)")
    assert create_rejected(control) is None and column("id", control) == [1], control
    shown = run_alone(package, server, f"INSERT INTO {table} (id, n) VALUES (2, 6)")
    if setting.refusal:
        assert create_rejected(shown) == setting.refusal and not rows(shown), shown
    else:
        assert create_rejected(shown) is None and column("id", shown) == [2], shown
