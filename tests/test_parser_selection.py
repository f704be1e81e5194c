"""One module (harness/selection.py) adds and resolves the parser flags for every entry point
that takes parsers, and a runtime parser of the registry goes through it like any other: named
with --parser, started by harness/plugins/launch.py, unavailable with the command that provides
it when it is not built. `conformance --jobs N` runs the parsers side by side, each in a process
of its own, with per-parser and combined reports."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import cli, selection
from harness.isolation import Limits
from harness.plugins.launch import UnavailableTestee
from harness.runtimes.base import INSTALL_COMMAND
from spark_checks import cli as spark_cli

PROJECT = Path(__file__).resolve().parents[1]
CASE = PROJECT / "corpus" / "mysql-9.7" / "ddl_dml_basic--row"
RUNTIME_PARSER = "zongji"  # a Node parser of the registry


def _entry_point_args() -> dict[str, object]:
    harness = cli.build_parser()
    return {
        "conformance": harness.parse_args(["conformance", "--parser", RUNTIME_PARSER]),
        "fuzz": harness.parse_args(["fuzz", "--parser", RUNTIME_PARSER]),
        "faults": harness.parse_args(["faults", "--parser", RUNTIME_PARSER]),
        "spark run": spark_cli.build_parser().parse_args(["run", "--corpus", "x", "--out", "x",
                                                                  "--parser", RUNTIME_PARSER]),
        "spark bench": spark_cli.build_parser().parse_args(["bench", "--parser", RUNTIME_PARSER]),
    }


@pytest.fixture
def empty_cache(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache in which nothing is built: every runtime parser is unavailable."""
    monkeypatch.setenv("BINLOG_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("entry_point", ["conformance", "fuzz", "faults", "spark run", "spark bench"])
def test_every_entry_point_names_a_runtime_parser_through_the_one_module(entry_point: str, empty_cache) -> None:
    args = _entry_point_args()[entry_point]
    assert selection.chosen(args) == [(selection.PLUGIN, RUNTIME_PARSER)]
    [spec] = selection.from_args(args, Limits())
    testee = spec.testee(Limits())
    assert isinstance(testee, UnavailableTestee)  # launch.named took the runtime's path
    hello = testee.hello()
    assert hello.name == RUNTIME_PARSER and hello.transport == "stream"
    assert hello.unavailable.endswith(f"provide it with: {INSTALL_COMMAND}")


def test_an_unbuilt_runtime_parser_fails_a_run_that_requires_all(empty_cache, tmp_path, capsys) -> None:
    status = cli.main(["conformance", "--parser", "oracle", "--parser", RUNTIME_PARSER, "--corpus", str(CASE),
                       "--results", str(tmp_path / "r.jsonl"), "--require-all", "--quiet"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_UNEXPECTED
    assert f"unavailable: {RUNTIME_PARSER}: {RUNTIME_PARSER} is not built; provide it with: {INSTALL_COMMAND}" in err
    assert "oracle: 1 cases, 0 expected failures, 0 unexpected, 0 stale" in err


def test_fuzz_says_an_unbuilt_runtime_parser_is_unavailable(empty_cache, capsys) -> None:
    status = cli.main(["fuzz", "--parser", RUNTIME_PARSER, "--count", "1", "--seeds", str(CASE)])
    assert status == 2
    assert capsys.readouterr().err.strip().endswith(INSTALL_COMMAND)


def test_jobs_run_each_parser_in_its_own_process_with_one_combined_report(empty_cache, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    status = cli.main(["conformance", "--parser", "oracle", "--parser", "harness.plugins.oracle_plugin:OracleParser",
                       "--parser", RUNTIME_PARSER, "--corpus", str(CASE), "--jobs", "2", "--out", str(out)])
    err = capsys.readouterr().err
    assert status == cli.EXIT_OK, err  # the unavailable parser is reported, not required
    for label in ("oracle", "harness.plugins.oracle_plugin:OracleParser", RUNTIME_PARSER):
        for name in ("results.jsonl", "report.json", "junit.xml", "report.html", "log.txt"):
            assert (out / label / name).is_file(), (label, name)
        assert f"{label} done in" in err
    lines = (out / "oracle" / "results.jsonl").read_text().splitlines()
    assert [json.loads(ln)["outcome"] for ln in lines] == ["pass"]
    combined = json.loads((out / "report.json").read_text())
    assert combined["summary"] == {"oracle": {"pass": 1}, "harness.plugins.oracle_plugin:OracleParser": {"pass": 1},
                                   RUNTIME_PARSER: {"unavailable": 1}}
    assert "3 parsers in" in err and (out / "report.html").is_file() and (out / "junit.xml").is_file()
    assert f"unavailable: {RUNTIME_PARSER}:" in err
    assert "oracle: 1 cases, 0 expected failures, 0 unexpected, 0 stale" in err


def test_jobs_fail_when_a_required_parser_cannot_run(empty_cache, tmp_path, capsys) -> None:
    status = cli.main(["conformance", "--parser", "oracle", "--parser", RUNTIME_PARSER, "--corpus", str(CASE),
                       "--jobs", "2", "--out", str(tmp_path / "out"), "--require-all"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_UNEXPECTED
    assert f"{RUNTIME_PARSER}: 1 cases not run here (unavailable): a failure under --require-all" in err
    assert "broken:" not in err
