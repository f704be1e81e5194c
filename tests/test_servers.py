"""Smoke tests of the real-server infrastructure: local images start, write
binlogs we can copy byte for byte, the real mysqlbinlog / mariadb-binlog decode
them, and containers are gone afterwards whatever happened."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import docker.errors
import pytest

from generators import docker_env
from generators.profiles import LOCAL_PROFILES, OFFICIAL_PROFILES, ServerProfile, get
from generators.samples import SAMPLE_PROFILES, parts
from generators.server import Server, ServerStartError, running_server
from generators.tools import run_mariadb_binlog, run_mysqlbinlog
from tests.server_fixtures import require_image, start_server  # noqa: F401 (fixture)

pytestmark = pytest.mark.server

MAGIC = b"\xfebin"
SMOKE_SQL = """\
CREATE DATABASE smoke;
CREATE TABLE smoke.t (id INT PRIMARY KEY, name VARCHAR(40), amount DECIMAL(10,2),
                      at DATETIME(6), doc {json}, raw BLOB);
INSERT INTO smoke.t VALUES (1, 'one', 1.50, '2024-01-02 03:04:05.678901', '{"k": [1, 2]}', x'00ff'),
                           (2, NULL, -2.25, NULL, NULL, NULL);
UPDATE smoke.t SET name = 'two' WHERE id = 2;
DELETE FROM smoke.t WHERE id = 1;
"""


def _decode(profile: ServerProfile, path: Path) -> subprocess.CompletedProcess[bytes]:
    if profile.flavor == "mysql":
        return run_mysqlbinlog(path, ["-vvv"])
    return run_mariadb_binlog(path, ["-vvv"], image=profile.image)


def _smoke(server: Server, tmp_path: Path) -> None:
    before = set(server.binlog_files())
    # JSON arrived in MySQL 5.7.8; 5.6 keeps the document as text.
    old = server.profile.flavor == "mysql" and server.profile.version == "5.6"
    server.execute(SMOKE_SQL.replace("{json}", "LONGTEXT" if old else "JSON"))
    server.flush_logs()
    files = server.binlog_files()
    assert len(files) > len(before), "FLUSH BINARY LOGS did not rotate"
    copied = server.copy_binlogs(tmp_path, files[:-1])
    sizes = server.binlog_sizes()
    for path in copied:
        data = path.read_bytes()
        assert data[:4] == MAGIC, path
        assert len(data) == sizes[path.name], "copy is not the whole file"
    # The file holding our DML, decoded by the real tool of the same flavor.
    last = copied[-1]
    events = server.show_binlog_events(last.name)
    assert any(e["Event_type"] in ("Write_rows", "Write_rows_v1") for e in events), events
    proc = _decode(server.profile, last)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    text = proc.stdout.decode(errors="replace")
    assert "### INSERT INTO `smoke`.`t`" in text
    assert "### UPDATE `smoke`.`t`" in text
    assert "### DELETE FROM `smoke`.`t`" in text


@pytest.mark.parametrize("name", list(LOCAL_PROFILES))
def test_local_server_row_binlog(name: str, start_server, tmp_path: Path) -> None:  # noqa: F811
    profile = get(name)
    server = start_server(profile, {"binlog_format": "ROW"})
    version = server.version()
    assert version.startswith(profile.expected_version), version
    assert server.scalar("SELECT @@binlog_format") == "ROW"
    assert server.scalar("SELECT @@bind_address") == "127.0.0.1"
    _smoke(server, tmp_path)


# Official images come from a registry, and a CI machine of this project has none (only PyPI,
# apt and npm are reachable): they can never be present there, so a skip is allowed in CI.
@pytest.mark.allow_skip_in_ci
@pytest.mark.parametrize("name", list(OFFICIAL_PROFILES))
def test_official_image_row_binlog(name: str, start_server, tmp_path: Path) -> None:  # noqa: F811
    """Same code path on registry images; runs only where the image was pulled."""
    profile = get(name)
    server = start_server(profile, {"binlog_format": "ROW"}, allow_skip_in_ci=True)
    assert server.version().startswith(profile.version + ".")
    _smoke(server, tmp_path)


def _mine() -> set[str]:
    """Containers owned by this test process (other people may run servers meanwhile)."""
    return {c.name for c in docker_env.client().containers.list(
        all=True, filters={"label": f"{docker_env.OWNER_LABEL}={os.getpid()}"})}


def test_start_error_has_log_tail_and_cleans_up(server_pool) -> None:
    profile = get("mariadb-10.11")
    require_image(profile)
    server_pool.close()  # the idle servers earlier tests left for reuse (tests/server_pool.py)
    assert not _mine()
    with (pytest.raises(ServerStartError) as info,
          running_server(profile, {"no_such_option_xyz": "1"}, start_timeout=60)):
        pytest.fail("server started with an unknown option")
    assert "no_such_option_xyz" in str(info.value)
    assert not _mine()


def test_missing_local_image_is_a_clear_error() -> None:
    require_image(get("mysql-9.7"))  # just for the docker check
    profile = ServerProfile(**{**get("mysql-9.7").__dict__, "image": "binlog-nonexistent:0"})
    with pytest.raises(ServerStartError, match="images build"), running_server(profile):
        pass


def test_exception_inside_block_removes_container() -> None:
    profile = get("mariadb-10.11")
    require_image(profile)
    with pytest.raises(RuntimeError, match="boom"), running_server(profile) as server:
        cid = server.container_id
        raise RuntimeError("boom")
    with pytest.raises(docker.errors.NotFound):
        docker_env.client().containers.get(cid)


CHILD = """
import faulthandler, signal, sys, time
faulthandler.register(signal.SIGUSR1)  # the test asks for the stack of a child that hangs
from generators.profiles import get
from generators.server import running_server
with running_server(get(sys.argv[1])) as s:
    print(s.container_id, flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_signal_removes_container(sig: signal.Signals, tmp_path: Path) -> None:
    profile = get("mariadb-10.11")
    require_image(profile)
    repo = Path(__file__).resolve().parents[1]
    # stderr to a file, not a pipe nobody reads (a full pipe would block the child's exit)
    errors = tmp_path / "child.stderr"
    with errors.open("w") as err:
        # SIGINT at its default in the child: an ignored SIGINT (left so by an earlier test of
        # the session) is inherited across exec, and the child would never see the Ctrl-C
        child = subprocess.Popen([sys.executable, "-c", CHILD, profile.name], cwd=repo,
                                 stdout=subprocess.PIPE, stderr=err, text=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        cid = (child.stdout.readline() if child.stdout else "").strip()
        assert cid, errors.read_text()
        child.send_signal(sig)
        try:
            child.wait(timeout=300)  # container removal waited on a loaded dockerd once (>120 s)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGUSR1)  # where it hangs, into its stderr
            time.sleep(2)
            pytest.fail(f"the child did not exit within 300 s of {sig.name}; its stderr:\n"
                        f"{errors.read_text()[-3000:]}")
    finally:
        if child.poll() is None:
            child.kill()
    with pytest.raises(docker.errors.NotFound):
        docker_env.client().containers.get(cid)


def test_mysqlbinlog_reads_host_file_without_network(tmp_path: Path) -> None:
    require_image(get("mysql-9.7"))
    bad = tmp_path / "not-a-binlog"
    bad.write_bytes(b"hello")
    proc = run_mysqlbinlog(bad)
    assert proc.returncode != 0
    assert b"magic" in proc.stderr.lower() or b"not a binary log" in proc.stderr.lower()
    with pytest.raises(FileNotFoundError):
        run_mysqlbinlog(tmp_path / "missing")


@pytest.mark.parametrize("name", SAMPLE_PROFILES)
def test_sample_manifests_match_files(name: str, sample_dirs) -> None:
    """The samples this session's servers wrote: every part, intact, decoded by the real tool."""
    root = sample_dirs(name)
    meta = json.loads((root / "manifest.json").read_text())
    assert meta["profile"] == name
    assert [f["part"] for f in meta["files"]] == [p.name for p in parts(get(name))]
    for f in meta["files"]:
        data = (root / f["file"]).read_bytes()
        assert data[:4] == MAGIC
        assert hashlib.sha256(data).hexdigest() == f["sha256"], f["file"]
        assert f["decoder_exit"] == 0, f



def test_decoder_session_matches_one_shot_run(sample_binlog) -> None:
    from generators.tools import DecoderSession
    mixed = sample_binlog("mysql-9.7", "mixed").path
    with DecoderSession([mixed.parent]) as session:
        a = session.run(mixed)
        cid = session._id
    b = run_mysqlbinlog(mixed)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    with pytest.raises(docker.errors.NotFound):
        docker_env.client().containers.get(cid or "")
