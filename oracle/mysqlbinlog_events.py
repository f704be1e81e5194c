"""What oracle/mysqlbinlog_text.py reads out of the text of `mysqlbinlog -vvv` / `mariadb-binlog
-vvv`: one TextEvent per printed event, and the TextDump of a whole output. Their own module, so
that the text parser and the row collector (mysqlbinlog_rows.py) both use them without importing
each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TextEvent:
    """One event as the tool printed it."""
    position: int | None  # `# at N`; None if the tool printed none for this header
    next_position: int  # end_log_pos
    server_id: int
    timestamp: int  # seconds since the epoch, reading the printed time as UTC
    checksum_alg: str | None  # the algorithm name printed before the checksum, if any
    checksum: int | None  # the stored checksum as printed (0x%08lx)
    label: str  # what the event's print() wrote after the header, first line
    type_codes: tuple[int, ...]  # every type code the label can stand for; () if unknown
    body: dict[str, Any] = field(default_factory=dict)
    nested: bool = False  # printed between "Start/End of compressed events" (Transaction_payload)
    in_use: bool | None = None  # Format_description only: the LOG_EVENT_BINLOG_IN_USE_F warning
    lines: list[str] = field(default_factory=list)  # the lines the tool printed for the body

    @property
    def type_code(self) -> int | None:
        return self.type_codes[0] if len(self.type_codes) == 1 else None

    def to_json(self) -> dict[str, Any]:
        """The canonical event's fields, as far as the text carries them (docs/canonical-model.md)."""
        out: dict[str, Any] = {
            "position": self.position,
            "next_position": self.next_position,
            "type_code": self.type_code,
            "server_id": self.server_id,
            "timestamp": self.timestamp,
            "checksum": {"algorithm": self.checksum_alg or "NONE", "stored": self.checksum},
            "body": self.body,
        }
        if self.type_code is None:
            out["type_candidates"] = list(self.type_codes)
        if self.nested:
            out["nested"] = True
        return out


@dataclass
class TextDump:
    """A whole output: its events and what the tool said about where it stopped."""
    events: list[TextEvent]
    complete: bool  # the tool reached "# End of log file"
    error: str | None = None  # the tool's ERROR message, if it printed one
    error_offset: int | None = None  # "Could not read entry at offset N"
    warnings: list[str] = field(default_factory=list)

    @property
    def stopped_early(self) -> bool:
        """The tool did not read the file to its end: an error, or a truncated last event."""
        return self.error is not None or any("truncated" in w for w in self.warnings)

    @property
    def server_version(self) -> str | None:
        for e in self.events:
            if "server_version" in e.body:
                return e.body["server_version"]
        return None
