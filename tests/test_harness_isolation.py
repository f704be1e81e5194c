"""A crashing or hanging parser is classified, and the run goes on with the others."""
from __future__ import annotations

import time

from tests.harness_helpers import GOOD, corpus_args, needs_external, python_cmd, run_cli

pytestmark = needs_external


def test_crash_and_hang_are_classified_without_stopping_the_run(tmp_path):
    started = time.monotonic()
    rc, records = run_cli(tmp_path, "--timeout", "2", "--parser", "oracle",
                          "--parser-cmd", python_cmd("crash.py"), "--parser-cmd", python_cmd("hang.py"),
                          *corpus_args(GOOD[:3]))
    elapsed = time.monotonic() - started
    assert rc == 1
    outcomes = {}
    for r in records:
        outcomes.setdefault(r["parser"], []).append(r["outcome"])
    assert outcomes == {"oracle": ["pass"] * 3, "crash.py": ["crash"] * 3, "hang.py": ["timeout"] * 3}
    crash = next(r for r in records if r["parser"] == "crash.py")
    assert "SIGSEGV" in crash["message"]
    assert elapsed < 3 * 2 + 25  # each hang costs about one timeout, not more


def test_hanging_persistent_testee_is_restarted_per_case(tmp_path):
    rc, records = run_cli(tmp_path, "--timeout", "1", "--parser-persistent",
                          python_cmd("hang_persistent.py"), *corpus_args(GOOD[:2]))
    assert rc == 1
    assert [r["outcome"] for r in records] == ["timeout", "timeout"]
    assert all(r["parser"] == "hang-persistent" for r in records)


def test_python_plugin_exception_is_a_crash_with_the_exception(tmp_path):
    rc, records = run_cli(tmp_path, "--parser", "tests.harness_plugin_fixtures:Raising", *corpus_args(GOOD[:2]))
    assert rc == 1
    assert [r["outcome"] for r in records] == ["crash", "crash"]
    assert "ZeroDivisionError" in records[0]["message"]
    assert "Traceback" in records[0]["log"]


def test_memory_limit_turns_a_blow_up_into_a_crash(tmp_path):
    rc, records = run_cli(tmp_path, "--memory-mb", "200", "--parser", "tests.harness_plugin_fixtures:Greedy",
                          *corpus_args(GOOD[:1]))
    assert rc == 1
    assert records[0]["outcome"] == "crash"
    assert "MemoryError" in records[0]["message"]


def test_a_crash_reported_by_the_testee_keeps_the_events_it_delivered(tmp_path):
    """The `crashed` reply: the outcome and message are the crash's (as if the process had just
    died), and the two events delivered before it are compared and counted, not lost."""
    rc, records = run_cli(tmp_path, "--parser", "tests.harness_plugin_fixtures:CrashingMidFile",
                          *corpus_args(GOOD[:1]))
    assert rc == 1
    [record] = records
    assert record["outcome"] == "crash"
    assert record["message"].startswith("died (exit status 70): IndexError: the library read past its buffer")
    assert "Traceback" in record["log"]
    checks = record["checks"]
    assert checks["passed"] >= 2  # the two delivered events, at least their framing
    assert checks["failed"] == 1  # <stopped>: the third event was never delivered
    assert checks["not_compared"] > 0  # the events after the crash
