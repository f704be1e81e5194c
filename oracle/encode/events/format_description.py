"""FORMAT_DESCRIPTION_EVENT (15) and START_EVENT_V3 (1). The checksum descriptor (algorithm byte
and CRC) of a Format_description is framing's job (stream.py)."""
from __future__ import annotations

from typing import Any

from ...checksum import ChecksumAlg
from ...fde import SERVER_VERSION_LEN, FormatDescription
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes


def _start_v3_fields(w: Writer, body: dict[str, Any]) -> Writer:
    version = body["server_version"].encode("latin-1") + as_bytes(body.get("server_version_tail", b""), "tail")
    if len(version) > SERVER_VERSION_LEN:
        raise EncodeError(f"server_version is {len(version)} bytes, {SERVER_VERSION_LEN} allowed")
    w.u16(body["binlog_version"], "binlog_version").raw(version).zeros(SERVER_VERSION_LEN - len(version))
    return w.u32(body["created"], "created")


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    w = _start_v3_fields(Writer(), body)
    w.u8(body["common_header_len"], "common_header_len")
    return w.raw(bytes(body["post_header_len"])).bytes()


def encode_start_v3(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return _start_v3_fields(Writer(), body).bytes()


def format_of(body: dict[str, Any], descriptor: int | None) -> FormatDescription:
    """The format a Format_description puts in force, as framing derives it: UNDEF (and no
    descriptor) means no checksums."""
    alg = descriptor if descriptor in (ChecksumAlg.OFF, ChecksumAlg.CRC32) else None
    return FormatDescription(body["binlog_version"], body["server_version"], body["created"],
                             body["common_header_len"], tuple(body["post_header_len"]), alg)
