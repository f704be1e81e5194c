"""Field-level comparison of canonical event streams, limited to what a parser declares.

Values are compared after oracle.values.plain(), so {"type": "int", "value": "5"} equals 5,
bools never equal numbers, and layout-only keys (bitmap padding, JSON opaque types) are ignored.

Events are aligned before they are compared (harness/align.py): by position where the parser
reports positions, else by event type, so a missing or extra event is one diff ("event @315
QUERY_EVENT: missing"), not a cascade, and the rest compare with the events they belong to."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator

from oracle.events import ROWS_TYPES
from oracle.values import LAYOUT_ONLY, plain

from .align import align
from .checks import EVENT, ROWS_LOST, UNNAMED, Checks
from .plugins.base import ALL, HEADER_FIELDS, Capabilities
from .row_values import ABSENT, Table, row_diffs, rows_kept, tables_of


# EVENT (checks.py) is the path of a missing or extra event.
ROWS_TYPE_NAMES = frozenset(t.name for t in ROWS_TYPES)
# An event may list fields its parser could not determine for that event (a text tool whose
# output does not say): they are not compared. Paths: "type_code", "body.query", ...
UNDETERMINED = "_undetermined"
LIBRARY_TYPE = "library_type"  # an adapter's word for the event (docs/plugin-contract.md): never compared


@dataclass(frozen=True)
class FieldDiff:
    index: int
    position: Any
    event_type: str
    path: str
    expected: Any
    actual: Any
    where: str = ""  # the place in words, where the path alone does not say it (a row's table, column)
    # The library's own name of the actual event (its class or enum, the adapter's `library_type`):
    # shown with the difference, never compared, not part of the line the digest pins.
    library_type: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {"index": self.index, "position": self.position, "event_type": self.event_type,
               "path": self.path, "expected": _jsonable(self.expected), "actual": _jsonable(self.actual)}
        if self.where:
            out["where"] = self.where
        if self.library_type:
            out["library_type"] = self.library_type
        return out

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
                caps: Capabilities, checks: Checks, type_name: str) -> Iterator[tuple[str, Any, Any, str]]:
    """(path, expected, actual, where). Rows go column by column (row_values.py); a Transaction_payload's nested events are
    aligned and compared like a stream of their own; any other field leaf by leaf. Rows and nested
    events count their own checks; any other field is one check, counted by the caller."""
    if name == "rows" and table is not None:
        yield from row_diffs(exp_body, act_body, table, caps.row_values, checks, type_name)
    elif name == "events" and isinstance(exp_body.get("events"), list):
        nested = act_body.get("events") if isinstance(act_body.get("events"), list) else []
        for d in compare_events(exp_body["events"], nested, caps, checks):
            yield f"body.events[{d.index}] {d.event_type} {d.path}", d.expected, d.actual, d.where
    else:
        for path, e, a in diff_values(plain(get_path(exp_body, name)), plain(get_path(act_body, name)),
                                      f"body.{name}"):
            yield path, e, a, ""


_COUNTS_ITSELF = ("rows", "events")  # body fields whose checks _body_diffs counts


def _header_fields(caps: Capabilities, undetermined: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool, bool]:
    """(header fields compared, fields not compared, whether type and type_code are compared):
    the same for every event of a parser, so worked out once."""
    key = (caps.header, undetermined)
    found = _HEADER_FIELDS.get(key)
    if found is None:
        compared = tuple(sorted(caps.header - undetermined))
        roots = {h.split(".", 1)[0] for h in compared}
        skipped = tuple(h for h in HEADER_FIELDS if h not in roots and h != "type")
        found = _HEADER_FIELDS[key] = (compared, skipped, "type" in roots, "type_code" in roots)
    return found


_HEADER_FIELDS: dict = {}


def _header_diffs(index: int, position: Any, type_name: str, exp: dict[str, Any], act: dict[str, Any],
                  caps: Capabilities, undetermined: frozenset[str], checks: Checks, out: list[FieldDiff]) -> None:
    """The common header fields the parser claims; the others are not compared. The event's type
    is checked even when not claimed: an event the parser cannot name is a failed check."""
    compared, skipped, type_compared, code_compared = _header_fields(caps, undetermined)
    for name in compared:
        n = len(out)
        for path, e, a in diff_values(plain(get_path(exp, name)), plain(get_path(act, name)), name):
            out.append(FieldDiff(index, position, type_name, path, e, a))
        if len(out) > n:
            checks.add((type_name, name, ""), failed=1)
    checks.add_fields(type_name, compared)
    checks.add_fields(type_name, skipped, compared=False)
    if type_compared:
        return
    if "type" in undetermined:  # the parser says it cannot tell (a text tool's ambiguous label)
        checks.add((type_name, "type", ""), not_compared=1)
    elif _named(act, code_compared):
        checks.add((type_name, "type", ""), 1)
    else:
        out.append(FieldDiff(index, position, type_name, "type", exp.get("type", ABSENT),
                             act.get("type", ABSENT), UNNAMED))
        checks.add((type_name, "type", ""), 1, 1)


def _named(act: dict[str, Any], code_compared: bool) -> bool:
    """The parser named the event: by its type name, or (a header-only parser, which reports no
    names) by a type code it claims and so is compared. `"type": null` is never a name."""
    if "type" in act:
        return isinstance(act["type"], str) and bool(act["type"])
    return code_compared and isinstance(act.get("type_code"), int) and not isinstance(act.get("type_code"), bool)


def _event_diffs(index: int, exp: dict[str, Any], act: dict[str, Any], caps: Capabilities,
                 table: Table | None, checks: Checks, out: list[FieldDiff]) -> None:
    type_name = str(exp.get("type", exp.get("type_code")))
    position = exp.get("position")
    undetermined = frozenset(act.get(UNDETERMINED) or ())
    first = len(out)
    _compare_event(index, type_name, position, exp, act, caps, table, undetermined, checks, out)
    library_type = act.get(LIBRARY_TYPE)
    if library_type and len(out) > first:
        out[first:] = [replace(d, library_type=str(library_type)) for d in out[first:]]


def _compare_event(index: int, type_name: str, position: Any, exp: dict[str, Any], act: dict[str, Any],
                   caps: Capabilities, table: Table | None, undetermined: frozenset[str], checks: Checks,
                   out: list[FieldDiff]) -> None:
    _header_diffs(index, position, type_name, exp, act, caps, undetermined, checks, out)
    fields = caps.body_fields(type_name)
    exp_body = exp.get("body") if isinstance(exp.get("body"), dict) else {}
    act_body = act.get("body") if isinstance(act.get("body"), dict) else {}
    # Claiming all fields means the exact key set; a named field is compared where the expected
    # event has it (a field the model does not give this event is not the parser's error).
    names = (set(exp_body) | set(act_body)) - LAYOUT_ONLY if fields == ALL else set(fields) & set(exp_body)
    unsure = {u[5:] for u in undetermined if u.startswith("body.")}
    compared = names - unsure
    counted = []
    for name in sorted(compared):
        n = len(out)
        for path, e, a, where in _body_diffs(name, exp_body, act_body, table, caps, checks, type_name):
            out.append(FieldDiff(index, position, type_name, path, e, a, where))
        if name not in _COUNTS_ITSELF or (name == "rows" and table is None):
            counted.append(_BODY_PATH.get(name) or _body_path(name))
            if len(out) > n:
                checks.add((type_name, counted[-1], ""), failed=1)
    checks.add_fields(type_name, tuple(counted))
    if type_name in ROWS_TYPE_NAMES and "rows" not in compared:
        if "rows" in unsure:
            checks.add((type_name, "body.rows.length", ""), not_compared=1)
        else:
            for path, e, a, where in rows_kept(exp_body, act.get("body"), checks, type_name):
                out.append(FieldDiff(index, position, type_name, path, e, a, where))
    elif isinstance(exp_body.get("events"), list) and "events" not in names:
        if "events" in unsure:  # the parser says it cannot tell which events are inside
            checks.add((type_name, "body.events", ""), not_compared=1)
        else:
            _nested_rows_kept(index, position, type_name, exp_body["events"], act_body, caps, checks, out)
    skipped = exp_body.keys() - LAYOUT_ONLY - compared - _ROWS
    if skipped:
        checks.add_fields(type_name, tuple(sorted(_BODY_PATH.get(n) or _body_path(n) for n in skipped)), False)


_ROWS = frozenset({"rows"})
_BODY_PATH: dict[str, str] = {}


def _body_path(name: str) -> str:
    _BODY_PATH[name] = f"body.{name}"
    return _BODY_PATH[name]


def _nested_rows_kept(index: int, position: Any, type_name: str, nested: list[dict[str, Any]],
                      act_body: dict[str, Any], caps: Capabilities, checks: Checks, out: list[FieldDiff]) -> None:
    """A Transaction_payload whose nested events the capabilities do not claim: events it
    delivers there are compared all the same; if none, its rows events' rows are lost."""
    delivered = act_body.get("events")
    if isinstance(delivered, list) and delivered:
        for d in compare_events(nested, delivered, caps, checks):
            out.append(FieldDiff(index, position, type_name, f"body.events[{d.index}] {d.event_type} {d.path}",
                                 d.expected, d.actual, d.where))
        return
    for k, e in enumerate(nested):
        nested_type = str(e.get("type"))
        if nested_type in ROWS_TYPE_NAMES:
            rows = (e.get("body") or {}).get("rows")
            out.append(FieldDiff(index, position, type_name, f"body.events[{k}] {nested_type} body.rows",
                                 len(rows) if isinstance(rows, list) else 0, ABSENT, ROWS_LOST))
            checks.add((nested_type, "body.rows.length", ""), 1, 1)


def expected_subset(expected: list[dict[str, Any]], caps: Capabilities) -> list[dict[str, Any]]:
    """The expected events a parser claims to report (all of them unless every_event is False);
    rows events always: a capability never excuses lost rows."""
    return [e for e in expected if caps.reports_type(str(e.get("type"))) or e.get("type") in ROWS_TYPE_NAMES]


def _type_name(event: dict[str, Any]) -> str:
    return str(event.get("type", event.get("type_code")))


def compare_events(expected: list[dict[str, Any]], actual: list[dict[str, Any]],
                   caps: Capabilities, checks: Checks | None = None) -> list[FieldDiff]:
    """Every difference (no cap: the verdict's counts and digest cover all of them); `checks`,
    when given, counts every check made, passed or failed, and every one not made."""
    if checks is None:
        checks = Checks()
    if actual is expected and caps.every_event:  # the oracle's own decode as its reply (spark_checks)
        return []
    exp = expected_subset(expected, caps)
    if len(exp) != len(expected):
        kept = {id(e) for e in exp}
        checks.not_compared((_type_name(e), EVENT, "") for e in expected if id(e) not in kept)
    tables = tables_of(expected)
    diffs: list[FieldDiff] = []
    for i, j in align(exp, actual, caps):
        if j is None:
            e = exp[i]
            diffs.append(FieldDiff(i, e.get("position"), _type_name(e), EVENT, "present", ABSENT))
            checks.add((_type_name(e), EVENT, ""), 1, 1)
        elif i is None:
            a = actual[j]
            diffs.append(FieldDiff(j, a.get("position"), _type_name(a), EVENT, ABSENT, "present",
                                   library_type=str(a.get(LIBRARY_TYPE) or "")))
            checks.add((_type_name(a), EVENT, ""), 1, 1)
        else:
            checks.add((_type_name(exp[i]), EVENT, ""), 1)
            _event_diffs(i, exp[i], actual[j], caps, tables.get(id(exp[i])), checks, diffs)
    return diffs
