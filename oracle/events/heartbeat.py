"""HEARTBEAT_LOG_EVENT (27) and HEARTBEAT_LOG_EVENT_V2 (41): sent by a source to an idle replica,
never written to a binlog file, but part of the replication stream a parser may be fed.

v1: the current log file name is the whole body. MySQL rejects an empty name and a header log_pos
below 4. MariaDB, when the position no longer fits the header's 4 bytes, writes log_pos 0 and puts
the position first in the body as a u64 (HB_SUB_HEADER_LEN = 8).
v2 (MySQL 8.0.26+): fields of (type, length, value), type and length as packed integers, ending at
type 0 (OTW_HB_HEADER_END_MARK): 1 is the log file name, 2 the position (a packed integer filling
the field). MySQL skips field types it does not know; they are kept here as bytes.
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import binary, integer, text

BIN_LOG_HEADER_SIZE = 4
HB_SUB_HEADER_LEN = 8
OTW_HB_HEADER_END_MARK = 0
OTW_HB_LOG_FILENAME_FIELD = 1
OTW_HB_LOG_POSITION_FIELD = 2


def decode_v1(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    log_pos = None
    if ctx.format.flavor == "mariadb" and header.log_pos == 0:
        log_pos = integer(r.u64("heartbeat log_pos sub-header"))
    elif header.log_pos is not None and header.log_pos < BIN_LOG_HEADER_SIZE:
        raise BadEventBody(r.offset, f"heartbeat log_pos {header.log_pos} is inside the binlog magic")
    if not r.remaining():
        raise BadEventBody(r.offset, "heartbeat carries no log file name")
    return {"log_pos": log_pos, "log_ident": text(r.rest())}


def _filename(field: Reader) -> dict[str, Any]:
    return {"log_filename": text(field.rest())}


def _position(field: Reader) -> dict[str, Any]:
    value = integer(field.packed_int("log_position"))
    if field.remaining():
        raise BadEventBody(field.offset, f"heartbeat log position field has {field.remaining()} bytes "
                                         "after its packed integer")
    return {"log_position": value}


V2_FIELDS = {OTW_HB_LOG_FILENAME_FIELD: _filename, OTW_HB_LOG_POSITION_FIELD: _position}


def decode_v2(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    body: dict[str, Any] = {"log_filename": None, "log_position": None, "unknown_fields": []}
    while r.remaining():
        kind = r.packed_int("heartbeat field type")
        if kind == OTW_HB_HEADER_END_MARK:
            break
        field = r.sub(r.packed_int("heartbeat field length"), "heartbeat field")
        read = V2_FIELDS.get(kind)
        if read is None:
            body["unknown_fields"].append({"type": integer(kind), "data": binary(field.rest())})
        else:
            body.update(read(field))
    return body
