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


def field_of(path: str) -> str:
    """The field a difference path belongs to: `body.status_vars.flags2` -> `body.status_vars`,
    `flags.value` stays (a header field may be claimed dotted)."""
    if path.startswith("body."):
        end = len(path)
        for sep in (".", "["):
            k = path.find(sep, 5)
            if k != -1:
                end = min(end, k)
        return path[:end]
    return path


class Checks:
    """Counts of checks by (event type, field, column type): [compared, failed, not compared].
    `passed` is compared minus failed, so a caller counts what it compared in bulk and each
    failure once."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[Key, list[int]] = {}

    def add(self, key: Key, compared: int = 0, failed: int = 0, not_compared: int = 0) -> None:
        c = self.counts.get(key)
        if c is None:
            self.counts[key] = [compared, failed, not_compared]
        else:
            c[0] += compared
            c[1] += failed
            c[2] += not_compared

    def merge(self, other: "Checks") -> None:
        for key, (compared, failed, nc) in other.counts.items():
            self.add(key, compared, failed, nc)

    def not_compared(self, keys: Iterable[Key]) -> None:
        for key in keys:
            self.add(key, not_compared=1)

    def to_json(self) -> dict[str, Any]:
        """The result's `checks` (docs/plugin-contract.md): totals, and the same three counts by
        event type, column type, field (`path` or `path COLTYPE`) and area."""
        total = _zero()
        by: dict[str, dict[str, dict[str, int]]] = {"by_event_type": {}, "by_column_type": {},
                                                     "by_field": {}, "by_area": {}}
        for (etype, field, coltype), (compared, failed, nc) in sorted(self.counts.items()):
            counts = (compared - failed, failed, nc)
            _bump(total, counts)
            _bump(by["by_event_type"].setdefault(etype, _zero()), counts)
            if coltype:
                _bump(by["by_column_type"].setdefault(coltype, _zero()), counts)
            _bump(by["by_field"].setdefault(f"{field} {coltype}" if coltype else field, _zero()), counts)
            _bump(by["by_area"].setdefault(area_of(field), _zero()), counts)
        return {**total, **by}


def _zero() -> dict[str, int]:
    return {PASSED: 0, FAILED: 0, NOT_COMPARED: 0}


def _bump(into: dict[str, int], counts: tuple[int, int, int]) -> None:
    into[PASSED] += counts[0]
    into[FAILED] += counts[1]
    into[NOT_COMPARED] += counts[2]


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
