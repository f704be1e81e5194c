"""The canonical event: one JSON object per event, the same for every parser under test.
docs/canonical-model.md documents it; oracle/schema/canonical-event.schema.json checks it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .checksum import alg_name
from .event_types import flag_names, type_name


@dataclass(frozen=True, slots=True)
class Checksum:
    algorithm: str  # NONE (format predates checksums), OFF, CRC32, UNDEF
    stored: int | None
    verified: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "stored": self.stored, "verified": self.verified}


@dataclass(frozen=True, slots=True)
class Event:
    position: int
    event_size: int
    next_position: int | None
    type_code: int
    server_id: int
    timestamp: int
    flags: int
    checksum: Checksum
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def type_name(self) -> str:
        return type_name(self.type_code)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "event_size": self.event_size,
            "next_position": self.next_position,
            "type_code": self.type_code,
            "type": self.type_name,
            "server_id": self.server_id,
            "timestamp": self.timestamp,
            "flags": {"value": self.flags, "names": flag_names(self.flags)},
            "checksum": self.checksum.to_json(),
            "body": self.body,
        }


def checksum_of(alg: int | None, stored: int | None, verified: bool | None) -> Checksum:
    return Checksum(alg_name(alg), stored, verified)
