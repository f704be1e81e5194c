"""Field-level comparison of canonical event streams, limited to what a parser declares.

Values are compared after oracle.values.plain(), so {"type": "int", "value": "5"} equals 5,
bools never equal numbers, and layout-only keys (bitmap padding, JSON opaque types) are ignored. Events are matched by index in the stream; a missing or extra event
is one diff, not a cascade, because the rest are still compared pairwise."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from oracle.values import LAYOUT_ONLY, plain

from .plugins.base import ALL, Capabilities


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()
MAX_DIFFS = 1000
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

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "position": self.position, "event_type": self.event_type,
                "path": self.path, "expected": _jsonable(self.expected), "actual": _jsonable(self.actual)}

    def __str__(self) -> str:
        return (f"event #{self.index} @{self.position} {self.event_type} {self.path}: "
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


def _event_diffs(index: int, exp: dict[str, Any], act: dict[str, Any], caps: Capabilities) -> Iterator[FieldDiff]:
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
        for path, e, a in diff_values(plain(get_path(exp_body, name)), plain(get_path(act_body, name)),
                                      f"body.{name}"):
            yield FieldDiff(index, position, type_name, path, e, a)


def expected_subset(expected: list[dict[str, Any]], caps: Capabilities) -> list[dict[str, Any]]:
    """The expected events a parser claims to report (all of them unless every_event is False)."""
    return [e for e in expected if caps.reports_type(str(e.get("type")))]


def compare_events(expected: list[dict[str, Any]], actual: list[dict[str, Any]],
                   caps: Capabilities) -> list[FieldDiff]:
    if actual is expected and caps.every_event:  # the oracle's own decode as its reply (spark_checks)
        return []
    exp = expected_subset(expected, caps)
    diffs: list[FieldDiff] = []
    for i, (e, a) in enumerate(zip(exp, actual)):
        for d in _event_diffs(i, e, a, caps):
            diffs.append(d)
            if len(diffs) >= MAX_DIFFS:
                return diffs
    for i in range(len(actual), len(exp)):
        e = exp[i]
        diffs.append(FieldDiff(i, e.get("position"), str(e.get("type")), "<event>", "present", ABSENT))
    for i in range(len(exp), len(actual)):
        a = actual[i]
        diffs.append(FieldDiff(i, a.get("position"), str(a.get("type", a.get("type_code"))), "<event>",
                               ABSENT, "present"))
    return diffs[:MAX_DIFFS]
