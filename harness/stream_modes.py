"""Stream modes (issue 32 item 4): the ways production CDC clients start a replication stream
besides a file and position, and what the harness serves and checks in each.

- position: at the case's file and position 4 (what every stream testee always did);
- gtid: from the GTID set of the case's start, computed here as a real server holds it: MySQL's
  executed set before the file's first transaction (its Previous_gtids, with the tags 8.4+ writes),
  MariaDB's GTID position there (BINLOG_GTID_POS(file, 4): the file's Gtid_list). The primary
  answers COM_BINLOG_DUMP_GTID / @slave_connect_state as the version does (harness/primary/dump.py);
- current: the testee asks the primary where the binlog is (the status statement its version
  has) and starts there; the primary reports the case's start (docs/primary.md, "Stream modes");
- heartbeats: at the position, with the testee asking for heartbeats; the primary is idle for a
  period after each transaction (at most MAX_HEARTBEATS), so a heartbeat arrives between events,
  and the testee reports each heartbeat it receives as an event, checked here.

A mode runs on the cases where it means something (gtid: a binlog with GTIDs; a MySQL server with
gtid_mode OFF refuses auto-position), and by default outside position mode only on a named sample
of cases (SAMPLE): the CI budget (docs/gating-ci.md, "Stream modes")."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .compare import ABSENT, FieldDiff
from .corpus import Case
from .expectations import Expectation
from .plugins.protocol import CURRENT, GTID, HEARTBEATS, MODES, POSITION

ALL_CASES, SAMPLE_CASES = "all", "sample"
# Outside position mode, by default: these cases of every server version of the corpus (and any
# case given by --mode-cases all). ddl_dml_basic--row: DDL, DML in transactions, every server;
# replica_apply--row: the workload the real replicas apply; gtid_tagged--row: MySQL 9.7's tagged
# GTIDs (in the start set of gtid mode). 2-3 cases x 7 servers x 3 modes per stream testee.
SAMPLE = frozenset({"ddl_dml_basic--row", "replica_apply--row", "gtid_tagged--row"})
# heartbeats per case at most: enough to see a client take them between events
MAX_HEARTBEATS = 20
HEARTBEAT_PERIOD = 1.0  # seconds a heartbeats-mode testee asks for (the primary never waits it)
HEARTBEAT_TYPES = ("HEARTBEAT_LOG_EVENT", "HEARTBEAT_LOG_EVENT_V2")
HEARTBEAT_CODES = {27: "HEARTBEAT_LOG_EVENT", 41: "HEARTBEAT_LOG_EVENT_V2"}
HEARTBEAT_V2_SINCE = (8, 0, 26)


def parse_modes(text: str) -> tuple[str, ...]:
    """`--modes position,gtid`: the modes asked for, in MODES order; ValueError on an unknown one."""
    asked = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in asked if m not in MODES]
    if unknown or not asked:
        raise ValueError(f"--modes takes a comma-separated list of {', '.join(MODES)}; got {text!r}")
    return tuple(m for m in MODES if m in asked)


def has_gtids(expectation: Expectation) -> bool:
    """A binlog whose server assigned GTIDs (MySQL gtid_mode ON, any MariaDB 10+ with GTID events)."""
    return any(e.get("type") in ("GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT", "GTID_EVENT")
               for e in expectation.events)


def modes_for(case: Case, expectation: Expectation, asked: tuple[str, ...], scope: str) -> list[str]:
    """The modes a stream testee runs this case in: position always (when asked); the others on
    the sample (or every case with --mode-cases all); gtid only where the binlog has GTIDs."""
    in_scope = scope == ALL_CASES or case.path.parent.name in SAMPLE
    out = []
    for mode in asked:
        if mode != POSITION and not in_scope:
            continue
        if mode == GTID and not has_gtids(expectation):
            continue
        out.append(mode)
    return out


@dataclass(frozen=True)
class ModeServing:
    """What the primary does differently in a mode, and what the testee is told."""

    gtid_set: str = ""
    status_position: tuple[str, int] | None = None
    heartbeats_after: frozenset[tuple[str, int]] = frozenset()
    heartbeat_period: float = 0.0


def transaction_ends(expectation: Expectation) -> list[int]:
    """The ends of the event groups a server commits at once (a transaction up to its XID,
    COMMIT, ROLLBACK or XA PREPARE; a statement outside one), where a server that has nothing
    more to send is idle: a heartbeat can arrive only there. The last event's end is left out:
    the testee stops at it."""
    ends, inside = [], False
    events = [e for e in expectation.events if isinstance(e.get("position"), int)]
    for e in events[:-1]:
        kind = e.get("type")
        query = str((e.get("body") or {}).get("query", "")).strip().upper() if kind == "QUERY_EVENT" else ""
        if kind in ("GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT", "ANONYMOUS_GTID_LOG_EVENT", "GTID_EVENT"):
            continue
        if query in ("BEGIN", "XA START") or query.startswith("XA START"):
            inside = True
            continue
        if kind in ("XID_EVENT", "XA_PREPARE_LOG_EVENT") or query in ("COMMIT", "ROLLBACK"):
            inside = False
        elif inside or kind not in ("QUERY_EVENT",):
            continue
        ends.append(e["position"] + e["event_size"])
    return ends[:MAX_HEARTBEATS]


def serving(mode: str, case: Case, expectation: Expectation, logs: Any) -> ModeServing:
    """How the primary serving `logs` (harness/primary/served.py ServedLogs) serves the case in `mode`."""
    name = case.path.name
    if mode == GTID:
        if logs.flavor == "mariadb":
            from .primary.gtid_pos import binlog_gtid_pos
            return ModeServing(gtid_set=binlog_gtid_pos(case.path, 4) or "")
        return ModeServing(gtid_set=logs.previous_gtid_text(name))
    if mode == CURRENT:
        return ModeServing(status_position=(name, 4))
    if mode == HEARTBEATS:
        return ModeServing(heartbeats_after=frozenset((name, p) for p in transaction_ends(expectation)),
                           heartbeat_period=HEARTBEAT_PERIOD)
    return ModeServing()


def mode_expectation(mode: str, case: Case, expectation: Expectation,
                     dump_start: tuple[str, int] | None = None) -> Expectation:
    """The events a testee gets in `mode`: all of the file's, but for a dump by GTID on MariaDB
    11.4+, which its GTID index starts after the file's Gtid_list (harness/primary/mariadb.py):
    in gtid mode, where the index says (a testee that dumps by position instead gets, and is
    shown, the events before it); in current mode, where the primary started the dump
    (`dump_start`, as it recorded it: the testee chose how to start, by the file and position of
    SHOW ... STATUS or, as Vitess does, by the GTID variables)."""
    if mode == GTID and _mariadb_gtid_index(expectation):
        from .primary.mariadb import gtid_index_start
        start = gtid_index_start(case.path)[0]
    elif mode == CURRENT and dump_start is not None and dump_start[0] == case.path.name:
        start = dump_start[1]
    else:
        return expectation
    if start <= 4:
        return expectation
    return dataclasses.replace(expectation, events=[e for e in expectation.events
                                                    if not isinstance(e.get("position"), int)
                                                    or e["position"] >= start])


def _mariadb_gtid_index(expectation: Expectation) -> bool:
    from .primary.mariadb import GTID_INDEX_SINCE
    version = _version(expectation.server_version)
    return "mariadb" in expectation.server_version.lower() and version >= GTID_INDEX_SINCE


def _version(text: str) -> tuple[int, ...]:
    import re
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", text)
    return tuple(int(x) for x in m.groups()) if m else ()


# -- heartbeats mode: the check ------------------------------------------------------------------

def _heartbeat_type(e: dict[str, Any]) -> str | None:
    if e.get("type") in HEARTBEAT_TYPES:
        return str(e["type"])
    return HEARTBEAT_CODES.get(e.get("type_code")) if e.get("type") is None else None  # type: ignore[arg-type]


def split_heartbeats(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the events of the file, the heartbeats) of a reply, each in order."""
    beats = [e for e in events if _heartbeat_type(e) is not None]
    return [e for e in events if _heartbeat_type(e) is None], beats


def _named(beat: dict[str, Any]) -> tuple[Any, Any]:
    """(file, position) a reported heartbeat names, ABSENT where the testee does not say."""
    body = beat.get("body") if isinstance(beat.get("body"), dict) else {}
    file = body.get("log_ident", body.get("log_filename", ABSENT))
    position = body.get("log_position", beat.get("next_position", ABSENT))
    if position is ABSENT and body.get("log_pos") is not None:
        position = body["log_pos"]
    return file, position


def check_heartbeats(expected: list[tuple[str, int]], got: list[dict[str, Any]],
                     server_version: str, end: int) -> list[FieldDiff]:
    """The heartbeats a testee reported against those the primary sent between events: one each,
    in order, of a type the server sends (v2 only from MySQL 8.0.26, to a client that asks), naming
    the file and position the client is at (where the testee reports them); heartbeats past the
    expected ones must be the idle ones after the last event (naming the stream's `end`, or 4 of
    the file a closing Rotate names)."""
    mysql = "mariadb" not in server_version.lower()
    allowed = HEARTBEAT_TYPES if mysql and _version(server_version) >= HEARTBEAT_V2_SINCE else HEARTBEAT_TYPES[:1]
    diffs: list[FieldDiff] = []
    for i, (file, pos) in enumerate(expected):
        if i >= len(got):
            diffs.append(FieldDiff(i, pos, "HEARTBEAT_LOG_EVENT", "heartbeat", f"{file}:{pos}", ABSENT,
                                   "a heartbeat the primary sent after this position, not reported"))
            continue
        beat = got[i]
        kind = _heartbeat_type(beat)
        if kind not in allowed:
            diffs.append(FieldDiff(i, pos, str(kind), "heartbeat.type", " or ".join(allowed), kind))
        named_file, named_pos = _named(beat)
        if named_pos is not ABSENT and named_pos != pos:
            diffs.append(FieldDiff(i, pos, str(kind), "heartbeat.log_pos", pos, named_pos))
        if named_file is not ABSENT and named_file != file:
            diffs.append(FieldDiff(i, pos, str(kind), "heartbeat.log_file", file, named_file))
    for i, beat in enumerate(got[len(expected):], len(expected)):
        if _named(beat)[1] in (end, 4, ABSENT):
            continue
        diffs.append(FieldDiff(i, None, str(_heartbeat_type(beat)), "heartbeat", ABSENT, _named(beat)[1],
                               "a heartbeat the primary did not send between events"))
    return diffs


def not_applicable_message(cause: str) -> str:
    return f"stream mode not supported: {cause}"
