"""Field shapes several body encoders share: the mirror of oracle/events/fields.py."""
from __future__ import annotations

from typing import Any

from ..context import EncodeContext
from ..writer import EncodeError, Writer, as_bytes


def post_header_len(ctx: EncodeContext, type_code: int, v4_default: int) -> int:
    """The post-header length the reader will use: the FDE's, or before any FDE the v4 default."""
    fmt = ctx.format
    return fmt.post_header_len(type_code) if fmt.post_header_lengths else v4_default


def fit_post_header(ph: Writer, length: int, what: str) -> bytes:
    """The post-header fields padded with zeros to the length the format gives (the reader skips
    the bytes it does not know); fields that do not fit are an error."""
    if len(ph) > length:
        raise EncodeError(f"{what}: {len(ph)} bytes of post-header fields, the format allows {length}")
    return ph.zeros(length - len(ph)).bytes()


def counted_cstring(w: Writer, value: bytes) -> Writer:
    """A string whose length is stored elsewhere, followed by the NUL the servers rely on."""
    return w.cstring(value)


def trailing(body: dict[str, Any]) -> bytes:
    """The ignored bytes after an event's last field (oracle/events/fields.keep_trailing)."""
    return as_bytes(body.get("trailing", b""), "trailing")
