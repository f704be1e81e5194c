"""INCIDENT_EVENT (26): the source tells replicas something happened that the log cannot show.

Post-header: the incident number u16; payload: a message of at most 255 bytes (u8 length). The
only incident defined is INCIDENT_LOST_EVENTS (1); MySQL and MariaDB both treat any other number,
INCIDENT_NONE (0) included, as an invalid event (incident_number >= INCIDENT_COUNT or
<= INCIDENT_NONE).
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import text
from .fields import keep_trailing, post_header

INCIDENT_HEADER_LEN = 2
INCIDENTS = {1: "INCIDENT_LOST_EVENTS"}


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    ph = post_header(r, ctx, header.type_code, INCIDENT_HEADER_LEN)
    at = ph.offset
    number = ph.u16("incident")
    if number not in INCIDENTS:
        raise BadEventBody(at, f"incident number {number} is not defined (only 1, LOST_EVENTS)")
    body = {"incident": number, "incident_name": INCIDENTS[number],
            "message": text(r.u8_bytes("message"))}
    # MySQL 9.7 writes 4 more bytes after the message.
    return keep_trailing(r, body)
