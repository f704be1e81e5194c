"""harness/jobs.py's start order: the longest parser first, from a previous run in the output
folder, else from the committed table of a measured run (a fresh clone, as in CI, has no run)."""
from __future__ import annotations

import json
from pathlib import Path

from harness import jobs
from harness.outcomes import CaseResult, Outcome
from harness.selection import PLUGIN, ParserSpec


def spec(name: str) -> ParserSpec:
    return ParserSpec(PLUGIN, name, name)


def write_run(out: Path, seconds: dict[str, list[float]]) -> None:
    for name, durations in seconds.items():
        (out / name).mkdir(parents=True)
        (out / name / jobs.RESULTS).write_text("".join(
            json.dumps(CaseResult(f"c{i}", name, Outcome.PASS, duration=d).to_json()) + "\n"
            for i, d in enumerate(durations)))


def test_the_committed_table_names_registry_parsers_longest_first() -> None:
    from harness.parsers.registry import BY_NAME
    table = jobs.measured_seconds()
    assert table and set(table) <= set(BY_NAME), set(table) - set(BY_NAME)
    assert list(table.values()) == sorted(table.values(), reverse=True)


def test_a_fresh_output_folder_starts_by_the_table(tmp_path: Path, monkeypatch) -> None:
    table = tmp_path / "seconds.tsv"
    table.write_text("# parser\tseconds\nzongji\t500\noracle\t20\n")
    monkeypatch.setattr(jobs, "MEASURED_SECONDS", table)
    order = sorted([spec("oracle"), spec("mysqlbinlog"), spec("zongji")], key=jobs._longest_first(tmp_path / "out"),
                   reverse=True)
    assert [s.label for s in order] == ["zongji", "oracle", "mysqlbinlog"]


def test_a_previous_run_wins_over_the_table_and_makes_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_run(out, {"oracle": [400.0, 1.0], "zongji": [3.0]})
    key = jobs._longest_first(out)
    assert key(spec("oracle"))[0] == 401.0 and key(spec("zongji"))[0] == 3.0
    assert jobs.seconds_table(out) == "oracle\t401\nzongji\t3\n"


class Idle:
    def __init__(self, fraction: float | None) -> None:
        self.fraction = fraction

    def idle_fraction(self) -> float | None:
        return self.fraction


def test_past_n_only_an_idle_machine_starts_one_more_and_never_past_m() -> None:
    import argparse
    import time
    args = argparse.Namespace(jobs=4, max_jobs=6)
    long_ago = time.monotonic() - 2 * jobs.IDLE_WINDOW
    assert jobs._room(args, 3, Idle(0.0), time.monotonic()) == ""  # under N: always
    assert jobs._room(args, 4, Idle(0.9), long_ago) == ", CPUs 90% idle"
    assert jobs._room(args, 4, Idle(0.1), long_ago) is None  # busy
    assert jobs._room(args, 4, Idle(None), long_ago) is None  # unknown
    assert jobs._room(args, 4, Idle(0.9), time.monotonic()) is None  # the last start still settling
    assert jobs._room(args, 6, Idle(0.9), long_ago) is None  # M reached
    assert jobs._room(argparse.Namespace(jobs=4, max_jobs=2), 4, Idle(0.9), long_ago) is None  # M <= N


def test_progress_counts_cases_not_the_lines_of_other_stream_modes(tmp_path: Path) -> None:
    """A stream testee's mode cases add a line per mode: progress must not pass the case total."""
    lines = [CaseResult("c1", "p", Outcome.PASS, mode=m) for m in ("position", "gtid", "current", "heartbeats")]
    lines += [CaseResult("c2", "p", Outcome.PASS, mode="position"), CaseResult("f1", "p", Outcome.PASS)]
    (tmp_path / jobs.RESULTS).write_text("".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in lines))
    assert jobs.Job(spec("p"), tmp_path).done_cases() == 3
