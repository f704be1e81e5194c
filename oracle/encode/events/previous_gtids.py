"""PREVIOUS_GTIDS_LOG_EVENT (35): the GTID set as Gtid_set::encode writes it. n_sids is the
number of sids listed; `gtid_set` (the printed text) is derived and not read."""
from __future__ import annotations

from typing import Any

from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes
from .gtid import uuid_bytes
from .mysql_serialization import varlen_string

_FORMATS = {"untagged": 0, "tagged": 1}


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    w = Writer().zeros(ctx.format.post_header_len(head.type_code))
    if body["format"] not in _FORMATS:
        raise EncodeError(f"GTID set format {body['format']!r} is not defined")
    tagged = body["format"] == "tagged"
    sids = body["sids"]
    w.u64((1 << 56) | (len(sids) << 8) | 1 if tagged else len(sids), "n_sids")
    for sid in sids:
        w.raw(uuid_bytes(sid["uuid"]))
        if tagged:
            w.raw(varlen_string(as_bytes(sid.get("tag", ""), "tag")))
        w.u64(len(sid["intervals"]), "n_intervals")
        for iv in sid["intervals"]:
            w.sint(8, iv["start"], "interval start").sint(8, iv["end"], "interval end")
    return w.bytes()
