"""Real replication clients against `python -m harness serve`: mysqlbinlog 9.7 and mariadb-binlog
copy the served binlogs byte for byte (--raw), over RSA key exchange and over TLS, events above
16 MB included; a wrong password is refused; python-mysql-replication reads the served events."""
from __future__ import annotations

from pathlib import Path

import pytest

from oracle.decoder import decode_file
from oracle.wire.packets import MAX_PACKET
from tests.primary_fixtures import (CORPUS, PASSWORD, case_files, mariadb_binlog_remote, mysqlbinlog_remote,
                                    serving, with_big_query)

pytestmark = [pytest.mark.server, pytest.mark.mysqlbinlog]

MYSQL_CASES = [("mysql-9.7", c) for c in (
    "json--row", "rotation--row", "ddl_dml_basic--row-compressed", "gtid_tagged--row", "incident--row",
    "load_data--statement", "blobs_text--row")] + [
    # the older versions' own cases: a primary playing 5.6 and 5.7 (mysql_native_password) and
    # 8.0.31 (caching_sha2_password)
    ("mysql-5.6", "rotation--row"), ("mysql-5.6", "load_data--statement"),
    ("mysql-5.7", "json--row"), ("mysql-5.7", "xa--row"), ("mysql-5.7", "rotation--statement"),
    ("mysql-8.0", "ddl_dml_basic--row-compressed"), ("mysql-8.0", "json_partial--row-minimal"),
    ("mysql-8.0", "rotation--row")]
MARIADB_CASES = [("mariadb-10.5", "rotation--row"), ("mariadb-10.11", "mariadb_types--row"),
                 ("mariadb-10.11", "load_data--statement"), ("mariadb-11.8", "ddl_dml_basic--row")]
MARIADB_CLIENT_IMAGE = {"mariadb-11.8": "binlog-mariadb:11.8"}  # the host's 10.11 client refuses 11.x


def _assert_copied(out_dir: Path, files: list[Path], proc) -> None:
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    for f in files:
        got = out_dir / f.name
        assert got.is_file(), f"{f.name} not written; stderr: {proc.stderr.decode(errors='replace')}"
        assert got.read_bytes() == f.read_bytes(), f"{f.name} differs from the served file"


@pytest.mark.parametrize("ssl", ["--ssl-mode=DISABLED --get-server-public-key", "--ssl-mode=REQUIRED"])
@pytest.mark.parametrize("version,case", MYSQL_CASES)
def test_mysqlbinlog_raw_copies_byte_for_byte(version: str, case: str, ssl: str, tmp_path: Path) -> None:
    files = case_files(CORPUS / version / case)
    out = tmp_path / "out"
    out.mkdir()
    with serving([CORPUS / version / case], tmp_path) as served:
        proc = mysqlbinlog_remote(served, out, [files[0].name], "--to-last-log", *ssl.split())
        log = served.stderr()
    _assert_copied(out, files, proc)
    if version in ("mysql-5.6", "mysql-5.7"):  # the account's plugin as those servers create it
        assert "authenticated (mysql_native_password, scramble" + ("" if "DISABLED" in ssl else ", TLS") in log
    else:  # the first connection of a fresh server takes the full caching_sha2 authentication
        assert "full authentication, RSA" in log if "DISABLED" in ssl else "full authentication, TLS" in log


@pytest.mark.parametrize("version,case", MARIADB_CASES)
def test_mariadb_binlog_raw_copies_byte_for_byte(version: str, case: str, tmp_path: Path) -> None:
    files = case_files(CORPUS / version / case)
    out = tmp_path / "out"
    out.mkdir()
    with serving([CORPUS / version / case], tmp_path) as served:
        proc = mariadb_binlog_remote(served, out, [files[0].name], "--to-last-log",
                                     image=MARIADB_CLIENT_IMAGE.get(version))
    _assert_copied(out, files, proc)


def test_wrong_password_is_refused_with_1045(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with serving([CORPUS / "mysql-9.7/json--row"], tmp_path) as served:
        mysql = mysqlbinlog_remote(served, out, ["binlog.000001"], "--ssl-mode=REQUIRED", password="wrong")
    with serving([CORPUS / "mariadb-10.11/blobs_text--row"], tmp_path) as served:
        maria = mariadb_binlog_remote(served, out, ["binlog.000001"], password="wrong")
    for proc in (mysql, maria):
        assert proc.returncode != 0
        assert "Access denied for user 'root'@'localhost' (using password: YES)" in proc.stderr.decode()
    assert not list(out.iterdir())


@pytest.fixture(scope="module")
def big_binlogs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Per flavor, a dir with an event of 17 MB and one whose packet payload (0x00 + event) is
    exactly 0xFFFFFF bytes, so an empty packet must follow it."""
    root = tmp_path_factory.mktemp("big")
    out = {}
    for flavor, src in (("mysql", CORPUS / "mysql-9.7/json--row/binlog.000001"),
                        ("mariadb", CORPUS / "mariadb-10.11/blobs_text--row/binlog.000001")):
        d = root / flavor
        d.mkdir()
        with_big_query(src, d / "binlog.000001", 17 * 1024 * 1024)
        with_big_query(src, d / "binlog.000002", MAX_PACKET - 1)
        for f in d.iterdir():
            assert sum(1 for _ in decode_file(f)) > 10  # the oracle reads it whole
        out[flavor] = d
    return out


def test_mysqlbinlog_copies_events_above_16mb(big_binlogs: dict[str, Path], tmp_path: Path) -> None:
    files = case_files(big_binlogs["mysql"])
    out = tmp_path / "out"
    out.mkdir()
    with serving([big_binlogs["mysql"]], tmp_path) as served:
        proc = mysqlbinlog_remote(served, out, [files[0].name], "--to-last-log", "--ssl-mode=REQUIRED")
    _assert_copied(out, files, proc)


def test_mariadb_binlog_copies_events_above_16mb(big_binlogs: dict[str, Path], tmp_path: Path) -> None:
    files = case_files(big_binlogs["mariadb"])
    out = tmp_path / "out"
    out.mkdir()
    with serving([big_binlogs["mariadb"]], tmp_path) as served:
        proc = mariadb_binlog_remote(served, out, [files[0].name], "--to-last-log")
    _assert_copied(out, files, proc)


def _pymysqlreplication_events(served, log_file: str, **kw):
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.event import QueryEvent, RotateEvent, XidEvent
    from pymysqlreplication.row_event import DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent
    # Previous_gtids is left out: the library misreads MySQL 9.x's tagged encoding (see docs/primary.md).
    stream = BinLogStreamReader({"host": served.host, "port": served.port, "user": "root", "password": PASSWORD},
                                server_id=4242, blocking=False, log_file=log_file, log_pos=4,
                                only_events=[QueryEvent, XidEvent, RotateEvent, WriteRowsEvent,
                                             UpdateRowsEvent, DeleteRowsEvent], **kw)
    try:
        return [(e.event_type, e.packet.log_pos, e) for e in stream]
    finally:
        stream.close()


@pytest.mark.parametrize("path", ["mysql-9.7/json--row", "mysql-9.7/rotation--row", "mariadb-10.11/ddl_dml_basic--row",
                                  "mariadb-11.8/rotation--row", "mysql-5.6/integers--row",
                                  "mysql-5.7/json--row", "mysql-8.0/json--row"])
def test_python_mysql_replication_reads_served_binlogs(path: str, tmp_path: Path) -> None:
    files = case_files(CORPUS / path)
    expected = [(e.type_code, e.next_position) for f in files for e in decode_file(f)
                if e.type_code in (2, 16, 4, 23, 24, 25, 30, 31, 32) and e.next_position]
    with serving([CORPUS / path], tmp_path) as served:
        got = _pymysqlreplication_events(served, files[0].name)
    real = [(t, pos) for t, pos, _ in got if pos != 0]  # log_pos 0: artificial Rotates (and MariaDB 11.8
    # writes some row events with log_pos 0, so those are left out on both sides)
    assert real == expected
    artificial = [e for t, pos, e in got if pos == 0 and t == 4]
    assert [e.next_binlog for e in artificial] == [f.name for f in files]
    rows = sum(len(e.rows) for _, _, e in got if hasattr(e, "rows"))
    assert rows > 0


def test_auth_switch_mysqlbinlog_against_a_mariadb_primary(tmp_path: Path) -> None:
    """mysqlbinlog 9.7 told to start with caching_sha2_password (--default-auth); a MariaDB primary's account
    uses mysql_native_password, so the server asks it to switch. It logs in, then (as against a
    real MariaDB) refuses the server version: that refusal is the proof it got past authentication."""
    out = tmp_path / "out"
    out.mkdir()
    with serving([CORPUS / "mariadb-10.11/rotation--row"], tmp_path) as served:
        proc = mysqlbinlog_remote(served, out, ["binlog.000001"], "--ssl-mode=DISABLED",
                                  "--default-auth=caching_sha2_password")
        log = served.stderr()
    assert "authenticated (mysql_native_password, scramble, switched from caching_sha2_password)" in log
    assert "COM_QUERY SELECT VERSION()" in log
    assert b"unrecognized MySQL version '10.11" in proc.stderr


OLDER_SERVERS = ["blackbeam__rust_mysql_common/test-data__binlogs__binlog_56_gtid_reserved_word.000001",  # 5.6.41
                 "blackbeam__rust_mysql_common/test-data__binlogs__binlog-invisible-columns.000001"]  # 8.0.26


@pytest.mark.parametrize("file", OLDER_SERVERS)
def test_binlogs_of_older_servers_are_served_as_those_servers(file: str, tmp_path: Path) -> None:
    """A 5.6 binlog makes a mysql_native_password primary, an 8.0.26 one a caching_sha2 primary;
    mysqlbinlog 9.7 copies either byte for byte."""
    from tests.external import ROOT as EXTERNAL
    path = EXTERNAL / file
    if not path.is_file():
        from tests.server_fixtures import missing
        missing(f"{path} not present (the external binlogs, /work/shared/external-binlogs)")
    out = tmp_path / "out"
    out.mkdir()
    with serving([path], tmp_path) as served:
        proc = mysqlbinlog_remote(served, out, [path.name], "--ssl-mode=REQUIRED")
        log = served.stderr()
    _assert_copied(out, [path], proc)
    plugin = "mysql_native_password" if "_56_" in file else "caching_sha2_password"
    assert f"authenticated ({plugin}" in log
