"""Stream testees through the conformance runner, end to end (issue 13): each case is served by
a primary the runner starts for it, the testee gets the StreamSource (a Python plugin's
parse_stream, a one-shot command's flags, a Node adapter's request), and the result is
classified like a file testee's, recording transport "stream"."""
from __future__ import annotations

import os

import pytest

from tests.harness_helpers import PROJECT, SCRIPTS, corpus_args, run_cli
from tests.peers_fixtures import installed  # noqa: F401 (a fixture)

pytest.importorskip("pymysqlreplication")

# Real cases, MySQL 9.7 (caching_sha2_password, GTIDs, CRC32) and MariaDB 11.8 (log_pos 0 inside
# transactions), on which python-mysql-replication is right.
CASES = [PROJECT / "corpus" / "mysql-9.7" / "ddl_dml_basic--row",
         PROJECT / "corpus" / "mariadb-11.8" / "ddl_dml_basic--statement"]


@pytest.fixture(autouse=True)
def _project_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers and scripts import harness from the worktree."""
    monkeypatch.chdir(PROJECT)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])))


def _summary(records: list[dict]) -> list[tuple[str, str, str]]:
    return [(r["case"], r["outcome"], r["message"]) for r in records]


def test_python_mysql_replication_reads_real_cases_from_the_primary(tmp_path) -> None:
    rc, stream = run_cli(tmp_path / "stream", "--parser", "python-mysql-replication", *corpus_args(CASES))
    assert rc == 0, _summary(stream)
    assert [(r["outcome"], r["transport"]) for r in stream] == [("pass", "stream")] * 2
    rc, file = run_cli(tmp_path / "file", "--parser", "python-mysql-replication-file", *corpus_args(CASES))
    assert {r["transport"] for r in file} == {"file"} and _summary(file) == _summary(stream)


def test_an_event_dropped_by_a_stream_testee_is_one_missing_diff(tmp_path) -> None:
    rc, records = run_cli(tmp_path, "--parser", "tests.harness_scripts.stream_plugins:DropFourthEvent",
                          *corpus_args(CASES[:1]))
    (r,) = records
    assert rc == 1 and r["outcome"] == "mismatch" and r["transport"] == "stream"
    assert r["n_diffs"] == 1, r["diffs"]
    assert r["diffs"][0]["path"] == "<event>" and r["diffs"][0]["actual"] == "<absent>"
    assert r["message"].startswith("1 difference; first: event @") and r["message"].endswith(": missing")


def test_a_one_shot_stream_command_gets_the_stream_as_flags(tmp_path) -> None:
    import sys
    rc, records = run_cli(tmp_path, "--parser-stream", f"{sys.executable} {SCRIPTS / 'stream_oneshot.py'}",
                          *corpus_args(CASES))
    assert rc == 0, _summary(records)
    assert [(r["parser"], r["outcome"], r["transport"]) for r in records] == [("stream-oneshot", "pass", "stream")] * 2


def test_a_node_peer_runs_through_the_stream_contract(installed: None, tmp_path) -> None:  # noqa: F811
    """@vlasky/zongji, a real npm package, reads each case from the runner's primary."""
    rc, records = run_cli(tmp_path, "--parser", "zongji-vlasky", *corpus_args(CASES[1:]))
    (r,) = records
    assert r["transport"] == "stream" and r["parser"] == "zongji-vlasky"
    assert r["outcome"] == "pass", r["message"]
