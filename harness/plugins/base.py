"""What a parser under test is, seen from the harness: a name, a version, the capabilities it
declares (which events and fields it reports), and parse(path) -> canonical events.

Capabilities matter because most parsers decode only part of the canonical model: comparison is
limited to what a parser says it reports, so a header-only parser can still pass."""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, runtime_checkable

ALL = "*"  # every event type / every body field

HEADER_FIELDS = ("position", "event_size", "next_position", "type_code", "type", "server_id",
                 "timestamp", "flags", "checksum")


class ParseError(Exception):
    """A clean rejection of bad input (not a crash). `events` are those decoded before it."""

    def __init__(self, kind: str, message: str, offset: int | None = None,
                 events: list[dict[str, Any]] | None = None) -> None:
        super().__init__(f"{kind} at offset {offset}: {message}" if offset is not None else f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.offset = offset
        self.events = events or []


_delivering: list[dict[str, Any]] = []


def delivering(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Name the list a plugin fills as it decodes (and return it), so that when the library
    raises something other than ParseError/Unsupported (a crash), the events delivered before it
    still reach the harness and are compared (docs/plugin-contract.md, the `crashed` reply)."""
    global _delivering
    _delivering = events
    return events


def delivered_so_far() -> list[dict[str, Any]]:
    """The list last named by `delivering` (the worker resets it before each request)."""
    return _delivering


class Unsupported(Exception):
    """The parser declines this input (a format it does not claim to support): outcome skipped."""


@dataclass(frozen=True)
class Capabilities:
    """header: top-level event fields reported (dotted paths allowed: "flags.value").
    bodies: event type name (or "*") -> body field names reported, or "*" for all of them.
    every_event: reports every event of a file; if False, events of types absent from `bodies`
    are dropped from the expectation before comparing.
    partial_events: on a rejection, reports the events decoded before it.
    row_values: the column types (MYSQL_TYPE_* names, as the Table_map gives them) whose row
    values are compared, or "*"; rows are compared at all only where a rows event type's body
    claims the field "rows" (harness/row_values.py).
    schema_lookups: a stream parser that names row columns by asking the primary (information_schema,
    SHOW COLUMNS): a case whose tables the primary cannot describe is skipped for it."""

    header: frozenset[str] = frozenset(HEADER_FIELDS)
    bodies: Mapping[str, frozenset[str] | str] = field(default_factory=lambda: {ALL: ALL})
    every_event: bool = True
    partial_events: bool = True
    row_values: frozenset[str] | str = ALL
    schema_lookups: bool = False

    def body_fields(self, type_name: str) -> frozenset[str] | str:
        """The body fields compared for one event type: a set, "*" (all), or an empty set."""
        if type_name in self.bodies:
            return self.bodies[type_name]
        return self.bodies.get(ALL, frozenset())

    def reports_type(self, type_name: str) -> bool:
        return self.every_event or type_name in self.bodies or ALL in self.bodies

    def to_json(self) -> dict[str, Any]:
        return {
            "header": sorted(self.header),
            "bodies": {k: v if isinstance(v, str) else sorted(v) for k, v in sorted(self.bodies.items())},
            "every_event": self.every_event,
            "partial_events": self.partial_events,
            "row_values": self.row_values if isinstance(self.row_values, str) else sorted(self.row_values),
            **({"schema_lookups": True} if self.schema_lookups else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> "Capabilities":
        """Missing keys mean "everything": an undeclared capability is compared, never excused."""
        if not data:
            return cls()
        bodies_in = data.get("bodies", {ALL: ALL})
        if not isinstance(bodies_in, Mapping):
            raise ValueError("capabilities.bodies must be an object")
        bodies = {str(k): v if v == ALL else frozenset(str(f) for f in v) for k, v in bodies_in.items()}
        row_values = data.get("row_values", ALL)
        return cls(frozenset(str(h) for h in data.get("header", HEADER_FIELDS)), bodies,
                   bool(data.get("every_event", True)), bool(data.get("partial_events", True)),
                   row_values if row_values == ALL else frozenset(str(t) for t in row_values),
                   bool(data.get("schema_lookups", False)))


FULL = Capabilities()
HEADER_ONLY = Capabilities(frozenset(("position", "event_size", "next_position", "type_code",
                                      "server_id", "timestamp", "flags.value")), {})


@runtime_checkable
class Parser(Protocol):
    """The in-process plugin contract (entry-point group `binlog_conformance.parsers`)."""

    name: str
    version: str
    capabilities: Capabilities

    def unavailable_reason(self) -> str | None: ...

    def parse(self, path: str) -> list[dict[str, Any]]: ...


class BaseParser(abc.ABC):
    """Convenience base: a plugin is available unless it says why not."""

    name: str = "unnamed"
    version: str = "unknown"
    capabilities: Capabilities = FULL
    # "file": parse(path). "stream": parse_stream(source), source a protocol.StreamSource naming
    # the primary (`harness serve`) that serves the case (docs/plugin-contract.md).
    transport: str = "file"

    def unavailable_reason(self) -> str | None:
        """None when the parser can run here; else why not (tool missing, ...): outcome unavailable."""
        return None

    @abc.abstractmethod
    def parse(self, path: str) -> list[dict[str, Any]]:
        """Canonical event dicts for the binlog at path; raise ParseError to reject it cleanly,
        Unsupported to decline it. Any other exception is a crash of the parser."""
