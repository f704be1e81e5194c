"""The control experiment of issue 22 (docs/cdc.md): the CDC testee against a real server that
replays a corpus case's SQL, and against `harness serve` serving the binlogs that server wrote,
with the same request; the change events must be the same apart from the fields that name the
moment or the server (harness/cdc_control/compare.py VOLATILE). A difference is a defect of
`harness serve`. The sample (harness/cdc_control/sample.py) holds every scenario of the corpus
and every local server version under `row`, one server start each: 27 cases on 9 servers."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from generators.generate import DEFAULT_SERVERS
from generators.profiles import LOCAL_PROFILES
from harness.cdc_control.compare import VOLATILE, differences
from harness.cdc_control.run import control_environment, run_plan
from harness.cdc_control.sample import LEFT_OUT, ROW, ServerPlan, choose, uncovered
from harness.isolation import Limits
from harness.plugins import launch
from harness.plugins.protocol import ERROR, EVENTS, ErrorInfo, Reply

from .server_fixtures import missing, require_image

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
PARSER = "debezium-mysql"
PLANS = choose(CORPUS)
# A stream testee gets this long per request (the JVM's engine start included).
LIMITS = Limits(timeout=180)
# Cases whose outcome depends on timing inside the testee, seen against the real server and
# against harness serve alike, either way round: the events of one reply must then begin the
# other's, but for its last (one side may stop early, at the failure, even inside an event).
TIMING_DEPENDENT = {
    "mariadb-11.8/table_shapes--row":
        "Debezium fails on the last transaction, an UPDATE of which MariaDB 11.8 logs only the stored "
        "columns of a table with generated ones ('internal schema size 4, but row size 2'); "
        "debezium-mysql ends a request once the binlog client has passed the end, which can come "
        "before that failure reaches the engine: a reply of events, or the same events (or fewer) then "
        "the error",
}
# The refusal of the MySQL connector (Debezium 3.6.1) at connect, for a real MariaDB before 11.8.
REFUSED_AT_CONNECT = "Connector configuration is not valid"


def test_sample_holds_every_scenario_and_every_version() -> None:
    assert uncovered(CORPUS, PLANS) == []
    # every server the corpus holds cases of (8.0.15 has an image and no cases: in_corpus=False)
    assert {p.profile for p in PLANS if p.config == ROW} == set(DEFAULT_SERVERS)
    assert set(LEFT_OUT) == {"shutdown"}
    assert all(len({c.config for c in p.cases}) == 1 for p in PLANS)  # one server start each


def test_volatile_fields_are_named_in_docs() -> None:
    doc = (ROOT / "docs" / "cdc.md").read_text(encoding="utf-8")
    for v in VOLATILE:
        assert f"`{v.pattern}`" in doc


def test_only_volatile_fields_are_left_out_of_the_comparison() -> None:
    row = {"position": 4, "body": {"rows": [{"values": [1, "a"], "names": ["id", "s"]}]}}
    real = Reply(EVENTS, [{**row, "ts_ms": 1, "source": {"ts_ms": 5, "server_id": 1}}])
    assert differences(real, Reply(EVENTS, [{**row, "ts_ms": 2, "source": {"ts_ms": 5, "server_id": 1}}])) == []
    assert differences(real, Reply(EVENTS, [{**row, "ts_ms": 1, "source": {"ts_ms": 5, "server_id": 2}}])) == [
        "event #0 : source.server_id: real server 1, harness serve 2"]
    other = {**row, "body": {"rows": [{"values": [1, "b"], "names": ["id", "s"]}]}}
    assert differences(Reply(EVENTS, [row]), Reply(EVENTS, [other])) == [
        "event #0 : body.rows.0.values.1: real server 'a', harness serve 'b'"]
    assert differences(Reply(EVENTS, [row, row]), Reply(EVENTS, [row])) == [
        "events: 2 from the real server, 1 from harness serve"]
    refused = Reply(ERROR, [], ErrorInfo("DebeziumException", 0, "binlog_format is not ROW"))
    assert differences(refused, Reply(EVENTS, [row])) == [
        "error: real server {'kind': 'DebeziumException', 'offset': 0, 'message': 'binlog_format is not ROW'}, "
        "harness serve None", "status: real server 'error', harness serve 'events'",
        "events: 0 from the real server, 1 from harness serve"]


@pytest.fixture(scope="module")
def testee() -> Iterator[launch.Testee]:
    # for as long as the adapter may (re)start: Debezium's default table.ignore.builtin (run.py)
    with control_environment():
        t = launch.named(PARSER, LIMITS)
        try:
            hello = t.hello()
            if hello is None or hello.unavailable:
                missing(f"{PARSER} cannot run: {hello.unavailable if hello else 'it did not start'}")
            yield t
        finally:
            t.close()


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.profile}-{p.config}")
def test_same_change_events_from_real_server_and_harness_serve(
        plan: ServerPlan, testee: launch.Testee, tmp_path: Path) -> None:
    require_image(LOCAL_PROFILES[plan.profile])
    outcomes = run_plan(plan, testee, tmp_path)
    assert len(outcomes) == len(plan.cases)
    assert {o.case: o.differences for o in outcomes if o.differences and o.case not in TIMING_DEPENDENT} == {}
    for o in outcomes:
        if o.case in TIMING_DEPENDENT:
            # the shorter reply begins the longer (its last event may hold part of its rows; the
            # failure can reach the engine after 1 event or after 4, on either side)
            n = max(0, min(len(o.real.events), len(o.served.events)) - 1)
            assert differences(Reply(EVENTS, o.real.events[:n]), Reply(EVENTS, o.served.events[:n])) == []
            # and where both fail, they fail alike
            errors = {r.error.message for r in (o.real, o.served) if r.error}
            assert len(errors) <= 1, o.summary()
    if plan.config == ROW:  # a row server gives change events, unless the connector refuses it
        assert any(o.real.status == EVENTS and o.real.events for o in outcomes) or all(
            o.real.error and REFUSED_AT_CONNECT in o.real.error.message for o in outcomes), \
            [o.summary() for o in outcomes]
