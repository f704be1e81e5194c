"""STOP_EVENT (3) and ROTATE_EVENT (4)."""
from __future__ import annotations

from typing import Any

from ...event_types import EventType as T
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes


def encode_stop(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return b""


def encode_rotate(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """No position field when the format's post-header for Rotate is shorter than 8 bytes
    (binlog v1, or a relay log before its FDE): the reader then assumes 4."""
    w = Writer()
    if ctx.format.post_header_len(T.ROTATE_EVENT) >= 8:
        w.u64(body["pos"], "pos")
    elif body.get("pos", 4) != 4:
        raise EncodeError(f"Rotate pos {body['pos']} cannot be written without a position field")
    return w.raw(as_bytes(body["new_log_ident"], "new_log_ident")).bytes()
