"""What "the same change events" means for the control experiment: the two replies (testee
against the real server, testee against `harness serve` serving that server's binlogs) are equal
field by field, except the fields VOLATILE lists, which name the moment the testee made a record
or the server it read from, not anything the binlog says. docs/cdc.md lists them too."""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from ..plugins.protocol import Reply


@dataclass(frozen=True)
class Volatile:
    """A field left out of the comparison: `pattern` matches dotted paths inside one event
    (fnmatch: `*` is any run of characters, dots included; list items are numbered)."""

    pattern: str
    why: str


VOLATILE: tuple[Volatile, ...] = (
    Volatile("*ts_ms", "the envelope's ts_ms: when Debezium made the record (its clock), where "
                       "source.ts_ms is when the server wrote the event (the binlog's timestamp)"),
    Volatile("*ts_us", "as ts_ms, in microseconds (Debezium 2.6+)"),
    Volatile("*ts_ns", "as ts_ms, in nanoseconds (Debezium 2.6+)"),
)
MAX_LISTED = 20   # differences listed per case; the count is always exact


def _is_volatile(path: str, volatile: tuple[Volatile, ...]) -> bool:
    return any(fnmatchcase(path, v.pattern) for v in volatile)


def _walk(real: Any, served: Any, path: str, volatile: tuple[Volatile, ...], out: list[str]) -> None:
    if path and _is_volatile(path, volatile):
        return
    if isinstance(real, dict) and isinstance(served, dict):
        for key in sorted({*real, *served}, key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in served:
                if not _is_volatile(sub, volatile):
                    out.append(f"{sub}: only from the real server ({_short(real[key])})")
            elif key not in real:
                if not _is_volatile(sub, volatile):
                    out.append(f"{sub}: only from harness serve ({_short(served[key])})")
            else:
                _walk(real[key], served[key], sub, volatile, out)
    elif isinstance(real, list) and isinstance(served, list):
        if len(real) != len(served):
            out.append(f"{path}: {len(real)} items from the real server, {len(served)} from harness serve")
        for i, (r, s) in enumerate(zip(real, served)):
            _walk(r, s, f"{path}.{i}", volatile, out)
    elif real != served or type(real) is not type(served):
        out.append(f"{path}: real server {_short(real)}, harness serve {_short(served)}")


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _outline(reply: Reply) -> dict[str, Any]:
    error = reply.error
    return {"status": reply.status, "detail": reply.detail,
            "error": None if error is None else {"kind": error.kind, "offset": error.offset,
                                                 "message": error.message}}


def differences(real: Reply, served: Reply, volatile: tuple[Volatile, ...] = VOLATILE) -> list[str]:
    """Every difference between the two replies outside `volatile`: the outcome (status, error
    kind, offset and message), the number of events, then each event field by field."""
    out: list[str] = []
    _walk(_outline(real), _outline(served), "", volatile, out)
    if len(real.events) != len(served.events):
        out.append(f"events: {len(real.events)} from the real server, {len(served.events)} from harness serve")
    for i, (r, s) in enumerate(zip(real.events, served.events)):
        found: list[str] = []
        _walk(r, s, "", volatile, found)
        out += [f"event #{i} {r.get('type', '')}: {d}" for d in found]
    return out
