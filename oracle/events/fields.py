"""Field shapes several event decoders share.

post_header: the FDE gives each type's post-header length; a newer server may make it longer than
the fields a decoder knows (the servers skip the extra bytes), and it can never be shorter without
the event being unreadable. Before any FDE (a relay-log fragment) the lengths are unknown, so the
length every v4 server writes is assumed.
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..reader import Reader
from ..values import binary


def post_header(r: Reader, ctx: DecodeContext, type_code: int, v4_default: int) -> Reader:
    """A reader over the post-header; r is left at the start of the payload."""
    fmt = ctx.format
    length = fmt.post_header_len(type_code) if fmt.post_header_lengths else v4_default
    r.need(length, "post-header")  # a body shorter than its post-header is truncated
    return r.sub(length, "post-header")


def counted_cstring(r: Reader, n: int, what: str) -> bytes:
    """n bytes whose length is stored elsewhere, followed by a NUL the servers rely on."""
    value = r.bytes(n, what)
    at = r.offset
    if r.u8(what + " terminator") != 0:
        raise BadEventBody(at, f"{what} is not followed by a NUL")
    return value


def keep_trailing(r: Reader, body: dict[str, Any]) -> dict[str, Any]:
    """Bytes after the last field, which the servers ignore: kept as body["trailing"] (only when
    there are some) so that the encoder (oracle/encode) can write the event back unchanged."""
    if r.remaining():
        body["trailing"] = binary(r.rest())
    return body
