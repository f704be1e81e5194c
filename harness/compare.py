"""Field-level comparison of canonical event streams, limited to what a parser declares.

Values are compared after oracle.values.plain(), so {"type": "int", "value": "5"} equals 5,
bools never equal numbers, and layout-only keys (bitmap padding, JSON opaque types) are ignored.

Events are aligned before they are compared (harness/align.py): by position where the parser
reports positions, else by event type, so a missing or extra event is one diff ("event @315
QUERY_EVENT: missing"), not a cascade, and the rest compare with the events they belong to."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from oracle.values import LAYOUT_ONLY, plain

from .align import align
from .plugins.base import ALL, Capabilities
from .row_values import Table, row_diffs, tables_of


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()
MAX_DIFFS = 1000
EVENT = "<event>"  # the path of a missing or extra event
# An event may list fields its parser could not determine for that event (a text tool whose
# output does not say): they are not compared. Paths: "type_code", "body.query", ...
UNDETERMINED = "_undetermined"


@dataclass(frozen=True)
class FieldDiff:
    index: int
    position: Any
    event_type: str
    path: str
    expected: Any
    actual: Any
    where: str = ""  # the place in words, where the path alone does not say it (a row's table, column)

    def to_json(self) -> dict[str, Any]:
        out = {"index": self.index, "position": self.position, "event_type": self.event_type,
               "path": self.path, "expected": _jsonable(self.expected), "actual": _jsonable(self.actual)}
        return {**out, "where": self.where} if self.where else out

    def __str__(self) -> str:
        if self.path.endswith(EVENT):  # a missing or extra event (nested: "body.events[0] TYPE <event>")
            where = f"@{self.position}" if self.position is not None else f"#{self.index}"
            inner = self.path[:-len(EVENT)]
            return f"event {where} {self.event_type} {inner}".rstrip() + \
                f": {'missing' if self.actual is ABSENT else 'extra'}"
        where = f" ({self.where})" if self.where else ""
        return (f"event #{self.index} @{self.position} {self.event_type} {self.path}{where}: "
                f"expected {_short(self.expected)}, got {_short(self.actual)}")


def _jsonable(v: Any) -> Any:
    return "<absent>" if v is ABSENT else v


def _short(v: Any, limit: int = 80) -> str:
    s = repr(v)
    return s if len(s) <= limit else s[:limit - 3] + "..."


def get_path(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return ABSENT
        obj = obj[part]
    return obj


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def diff_values(expected: Any, actual: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """(path, expected, actual) for every leaf that differs."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            yield from diff_values(expected.get(key, ABSENT), actual.get(key, ABSENT), f"{path}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from diff_values(e, a, f"{path}[{i}]")
        if len(expected) != len(actual):
            yield f"{path}.length", len(expected), len(actual)
    elif not _same(expected, actual):
        yield path, expected, actual


def _body_diffs(name: str, exp_body: dict[str, Any], act_body: dict[str, Any], table: Table | None,
                caps: Capabilities) -> Iterator[tuple[str, Any, Any, str]]:
    """(path, expected, actual, where). Rows go column by column (row_values.py); a Transaction_payload's nested events are
    aligned and compared like a stream of their own; any other field leaf by leaf."""
    if name == "rows" and table is not None:
        yield from row_diffs(exp_body, act_body, table, caps.row_values)
    elif name == "events" and isinstance(exp_body.get("events"), list):
        nested = act_body.get("events") if isinstance(act_body.get("events"), list) else []
        for d in compare_events(exp_body["events"], nested, caps):
            yield f"body.events[{d.index}] {d.event_type} {d.path}", d.expected, d.actual, d.where
    else:
        for path, e, a in diff_values(plain(get_path(exp_body, name)), plain(get_path(act_body, name)),
                                      f"body.{name}"):
            yield path, e, a, ""


def _event_diffs(index: int, exp: dict[str, Any], act: dict[str, Any], caps: Capabilities,
                 table: Table | None = None) -> Iterator[FieldDiff]:
    type_name = str(exp.get("type", exp.get("type_code")))
    position = exp.get("position")
    undetermined = set(act.get(UNDETERMINED) or ())
    for name in sorted(caps.header - undetermined):
        for path, e, a in diff_values(plain(get_path(exp, name)), plain(get_path(act, name)), name):
            yield FieldDiff(index, position, type_name, path, e, a)
    fields = caps.body_fields(type_name)
    exp_body = exp.get("body") if isinstance(exp.get("body"), dict) else {}
    act_body = act.get("body") if isinstance(act.get("body"), dict) else {}
    # Claiming all fields means the exact key set; a named field is compared where the expected
    # event has it (a field the model does not give this event is not the parser's error).
    names = (set(exp_body) | set(act_body)) - LAYOUT_ONLY if fields == ALL else set(fields) & set(exp_body)
    for name in sorted(names - {u[5:] for u in undetermined if u.startswith("body.")}):
        for path, e, a, where in _body_diffs(name, exp_body, act_body, table, caps):
            yield FieldDiff(index, position, type_name, path, e, a, where)


def expected_subset(expected: list[dict[str, Any]], caps: Capabilities) -> list[dict[str, Any]]:
    """The expected events a parser claims to report (all of them unless every_event is False)."""
    return [e for e in expected if caps.reports_type(str(e.get("type")))]


def _type_name(event: dict[str, Any]) -> str:
    return str(event.get("type", event.get("type_code")))


def compare_events(expected: list[dict[str, Any]], actual: list[dict[str, Any]],
                   caps: Capabilities) -> list[FieldDiff]:
    exp = expected_subset(expected, caps)
    tables = tables_of(expected)
    diffs: list[FieldDiff] = []
    for i, j in align(exp, actual, caps):
        if j is None:
            e = exp[i]
            diffs.append(FieldDiff(i, e.get("position"), _type_name(e), EVENT, "present", ABSENT))
        elif i is None:
            a = actual[j]
            diffs.append(FieldDiff(j, a.get("position"), _type_name(a), EVENT, ABSENT, "present"))
        else:
            diffs.extend(_event_diffs(i, exp[i], actual[j], caps, tables.get(id(exp[i]))))
        if len(diffs) >= MAX_DIFFS:
            break
    return diffs[:MAX_DIFFS]
