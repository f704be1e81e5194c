"""Issue 29 item 3, the adapters' side: when the library crashes (an unchecked exception, a
panic), each built-in persistent adapter sends the `crashed` reply with the events it had
delivered, so they are compared (docs/plugin-contract.md). Before, a crash lost them all.

Each case is a recorded reproducer (corpus/findings/) on which that library crashes after it has
delivered events; the reply must still be a crash, carry those events, and name none past the
crash."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.isolation import Limits
from harness.plugins.launch import named
from harness.plugins.protocol import CRASH

from .server_fixtures import missing

FINDINGS = Path(__file__).resolve().parent.parent / "corpus" / "findings"

# parser -> a reproducer on which its library crashes after some events (its runtime in brackets)
CRASHES_AFTER_EVENTS = {
    "mysql-binlog-connector-java-file": "mysql-binlog-connector-java-file/crash-eb972c1c520b",  # jvm
    "canal-file": "mysql-binlog-connector-java-file/crash-eb972c1c520b",  # jvm
    "go-mysql-file": "go-mysql-file/crash-428ae9338773",  # go, runtime panic
    "vitess-file": "mysql-binlog-connector-java-file/crash-eb972c1c520b",  # go, its own signature
    # rust: a panic it catches (go-mysql-file/crash-428ae9338773 now aborts on an allocation of
    # 1.3 GB under the 1 GiB data limit, which no catch_unwind survives)
    "mysql-common-file": "canal-file/crash-3c410fb84ff9",
    "mysql-binlog-connector-rust-file": "go-mysql-file/crash-027bfd2fdae7",  # rust
    "python-mysql-replication-file": "go-mysql-file/crash-027bfd2fdae7",  # python worker
}


def _binlog(case: str) -> Path:
    return FINDINGS / case / "binlog"


@pytest.mark.parametrize("name", sorted(CRASHES_AFTER_EVENTS))
def test_a_crashing_library_still_reports_the_events_before_the_crash(name: str) -> None:
    testee = named(name, Limits(timeout=60))
    try:
        hello = testee.hello()
        if hello is None or hello.unavailable:
            missing(f"{name} cannot run here: {hello.unavailable if hello else 'no hello'}")
        path = _binlog(CRASHES_AFTER_EVENTS[name])
        reply = testee.parse(str(path))
    finally:
        testee.close()
    assert reply.status == CRASH, f"{name} no longer crashes on {path}: {reply.status} {reply.detail}"
    assert reply.detail.startswith("died (exit status "), reply.detail
    assert reply.events, f"{name} crashed and its `crashed` reply carried no event"
    positions = [e.get("position") for e in reply.events]
    assert all(isinstance(p, int) and 4 <= p < path.stat().st_size for p in positions), positions
