"""Checks: every comparison the harness makes, counted, so a verdict says what was checked.

A check has an identity: the event type, the field (a normalised path: `body.query`,
`server_id`, `body.rows[].values[]`, `<event>` for the event's presence), and the column type
where it is a row value. Its result is passed, failed, or not compared (the binlog holds it but
the parser's capabilities, or the parser's own `_undetermined` list, leave it out).

Granularity, so counts stay cheap and mean the same everywhere:
- a header or body field is one check per event (a field with several differing leaves is one
  failed check; every difference still goes into the verdict's differences and digest);
- a row value is one check per column per image (`body.rows[].values[] TINY`), a row count one
  check per rows event (`body.rows.length`), an image one check per expected image per row;
- an event's presence is one check per expected event (`<event>`), an extra event one failed one;
- a reply that fails (rejected, crashed, timed out) is one failed check `<stopped>` at the first
  event it did not deliver, whose events are not compared; a bad file accepted is one failed
  check `<rejection>`.

Every check belongs to one area: row values (rows, images, column values), event framing (the
common header and the event's presence) or event metadata (every other body field).

Counting is a dict increment per field and per image (row values are counted per image, in
bulk), never an object per check (docs/speed.md)."""
from __future__ import annotations

from typing import Any, Iterable

ROW_VALUES, METADATA, FRAMING = "row_values", "event_metadata", "framing"
AREAS = (ROW_VALUES, METADATA, FRAMING)
PASSED, FAILED, NOT_COMPARED = "passed", "failed", "not_compared"
EVENT = "<event>"
STOPPED = "<stopped>"      # a reply that ended in a rejection, crash or timeout, at the event it did not deliver
REJECTION = "<rejection>"  # a file accepted where it must be rejected, at the event to reject
END = "(end of file)"      # the event type of a check past the last event
ROWS_LOST = "rows lost"
UNNAMED = "unnamed event"

Key = tuple[str, str, str]  # (event type, field, column type or "")


def area_of(field: str) -> str:
    if field.startswith("body.rows"):
        return ROW_VALUES
    if field.startswith("body."):
        return METADATA
    return FRAMING


class Checks:
    """Counts of checks by (event type, field, column type): [compared, failed, not compared].
    `passed` is compared minus failed, so a caller counts what it compared in bulk and each
    failure once. The fields an event compares (or leaves out) are counted as one tuple per
    event (`fields`), expanded only in to_json: a dict increment per event, not per field."""

    __slots__ = ("counts", "fields")

    def __init__(self) -> None:
        self.counts: dict[Key, list[int]] = {}
        self.fields: dict[tuple[str, tuple[str, ...], bool], int] = {}  # (type, fields, compared) -> events

    def add(self, key: Key, compared: int = 0, failed: int = 0, not_compared: int = 0) -> None:
        c = self.counts.get(key)
        if c is None:
            self.counts[key] = [compared, failed, not_compared]
        else:
            c[0] += compared
            c[1] += failed
            c[2] += not_compared

    def add_fields(self, event_type: str, fields: tuple[str, ...], compared: bool = True) -> None:
        """One event's fields, each one check compared (its failures added with `add`), or not."""
        if fields:
            key = (event_type, fields, compared)
            self.fields[key] = self.fields.get(key, 0) + 1

    def not_compared(self, keys: Iterable[Key]) -> None:
        for key in keys:
            self.add(key, not_compared=1)

    def to_json(self) -> dict[str, Any]:
        """The result's `checks` (docs/plugin-contract.md): totals, and the same three counts by
        event type, column type, field (`path` or `path COLTYPE`) and area. An event's field
        tuple adds to its event type and areas once, to each field's count once."""
        groups: dict[str, dict[str, list[int]]] = {g: {} for g in _GROUPS}
        by_type, by_field, by_area, by_column = (groups[g] for g in _GROUPS)
        total = [0, 0, 0]
        for (etype, fields, compared), n in self.fields.items():
            i = 0 if compared else 2
            total[i] += n * len(fields)
            by_type.setdefault(etype, [0, 0, 0])[i] += n * len(fields)
            for area, k in _areas_of(fields):
                by_area.setdefault(area, [0, 0, 0])[i] += n * k
            for f in fields:
                by_field.setdefault(f, [0, 0, 0])[i] += n
        for (etype, field, coltype), (compared, failed, nc) in self.counts.items():
            counts = (compared - failed, failed, nc)
            _add3(total, counts)
            _add3(by_type.setdefault(etype, [0, 0, 0]), counts)
            _add3(by_field.setdefault(f"{field} {coltype}" if coltype else field, [0, 0, 0]), counts)
            _add3(by_area.setdefault(_AREA.get(field) or _area(field), [0, 0, 0]), counts)
            if coltype:
                _add3(by_column.setdefault(coltype, [0, 0, 0]), counts)
        return {**_named(total), **{g: {k: _named(v) for k, v in sorted(groups[g].items())} for g in _GROUPS}}


_GROUPS = ("by_event_type", "by_field", "by_area", "by_column_type")
_AREA: dict[str, str] = {}


def _area(field: str) -> str:
    _AREA[field] = area_of(field)
    return _AREA[field]


_AREAS_OF: dict[tuple[str, ...], list[tuple[str, int]]] = {}


def _areas_of(fields: tuple[str, ...]) -> list[tuple[str, int]]:
    """(area, how many of the fields are in it), worked out once per field tuple."""
    found = _AREAS_OF.get(fields)
    if found is None:
        counts: dict[str, int] = {}
        for f in fields:
            area = _AREA.get(f) or _area(f)
            counts[area] = counts.get(area, 0) + 1
        found = _AREAS_OF[fields] = list(counts.items())
    return found


def _add3(into: list[int], counts: tuple[int, int, int]) -> None:
    into[0] += counts[0]
    into[1] += counts[1]
    into[2] += counts[2]


def _named(counts: list[int]) -> dict[str, int]:
    return {PASSED: counts[0], FAILED: counts[1], NOT_COMPARED: counts[2]}


def add_counts(into: dict[str, int], counts: dict[str, Any] | None) -> dict[str, int]:
    """Sum one result's counts (a `checks` dict or one of its breakdown entries) into `into`."""
    if counts:
        for k in (PASSED, FAILED, NOT_COMPARED):
            into[k] = into.get(k, 0) + int(counts.get(k, 0))
    return into


def share(counts: dict[str, int]) -> float | None:
    """Passed over compared (passed + failed); None when nothing was compared."""
    compared = counts.get(PASSED, 0) + counts.get(FAILED, 0)
    return counts.get(PASSED, 0) / compared if compared else None
