"""MariaDB START_ENCRYPTION_EVENT (164): the rest of the binlog is encrypted
(Start_encryption_log_event): crypto_scheme (1), key_version (4), nonce (12), read right after the
common header. MariaDB accepts only that exact size; any other leaves the event invalid."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import binary

BINLOG_NONCE_LENGTH = 12
_BODY_LENGTH = 1 + 4 + BINLOG_NONCE_LENGTH


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    if r.remaining() != _BODY_LENGTH:
        raise BadEventBody(r.offset, f"Start_encryption body is {r.remaining()} bytes, "
                                     f"{_BODY_LENGTH} expected")
    return {"crypto_scheme": r.u8("crypto_scheme"), "key_version": r.u32("key_version"),
            "nonce": binary(r.bytes(BINLOG_NONCE_LENGTH, "nonce"))}
