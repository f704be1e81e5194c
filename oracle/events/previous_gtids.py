"""PREVIOUS_GTIDS_LOG_EVENT (35): the GTID set executed before this binlog, as Gtid_set::encode
writes it (sql/rpl_gtid_set.cc).

Layout: 8 bytes n_sids whose top byte is the format (0 untagged; 1 tagged, where n_sids moves
to bits 8..55 and the low byte repeats the format), then per sid: 16-byte UUID, in the tagged
format a tag (serialization-framework string, empty for untagged sids), 8 bytes n_intervals and
that many [start, end) pairs of signed 8-byte GNOs, strictly increasing.

The body gives the sids as stored, and `gtid_set`: the text the server prints for the set
(Gtid_set::to_string with default_string_format), where sids are sorted by UUID then tag,
repeated sids merged, intervals coalesced, and entries joined by ",\n". mysqlbinlog prints the
same text with "# " before each line.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody, TruncatedEvent
from ..header import Header
from ..reader import Reader
from ..values import integer
from .gtid import TAG_MAX_LENGTH, int64, uuid_text
from .mysql_serialization import varlen_string

_FORMATS = {0: "untagged", 1: "tagged"}
_SID_MIN_BYTES = 16 + 8  # the server's check before each sid
_INTERVAL_BYTES = 16
_SPACE = b" \t\n\v\f\r"
GNO_SID_SEPARATOR = ",\n"


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    r.skip(ctx.format.post_header_len(header.type_code), "post-header")
    if r.remaining() < 8:
        raise TruncatedEvent(r.offset, f"Previous_gtids needs 8 bytes, {r.remaining()} left")
    start = r.offset
    word = r.u64("n_sids")
    fmt = word >> 56
    if fmt not in _FORMATS:
        raise BadEventBody(start, f"unknown GTID set encoding format {fmt}")
    tagged = fmt == 1
    n_sids = (word >> 8) & ((1 << 48) - 1) if tagged else word & ((1 << 56) - 1)
    sids = [_read_sid(r, tagged) for _ in _bounded(n_sids, r, _SID_MIN_BYTES, "sid")]
    if r.remaining():
        raise BadEventBody(r.offset, f"{r.remaining()} bytes after the GTID set")
    return {
        "format": _FORMATS[fmt],
        "n_sids": integer(n_sids),
        "sids": sids,
        "gtid_set": gtid_set_text(sids),
    }


def _bounded(count: int, r: Reader, min_bytes: int, what: str) -> range:
    """range(count), after checking the bytes left can hold count items: an untrusted count
    never drives a long loop."""
    if count * min_bytes > r.remaining():
        raise TruncatedEvent(r.offset, f"{count} {what}s need at least {count * min_bytes} bytes, "
                                       f"{r.remaining()} left")
    return range(count)


def _read_sid(r: Reader, tagged: bool) -> dict[str, Any]:
    if r.remaining() < _SID_MIN_BYTES:
        raise TruncatedEvent(r.offset, f"a sid needs {_SID_MIN_BYTES} bytes, {r.remaining()} left")
    sid: dict[str, Any] = {"uuid": uuid_text(r.bytes(16, "uuid"))}
    if tagged:
        sid["tag"] = _read_tag(r)
    n_intervals = r.u64("n_intervals")
    intervals = []
    last = 0
    for _ in _bounded(n_intervals, r, _INTERVAL_BYTES, "interval"):
        offset = r.offset
        start = int64(r.u64("interval start"))
        end = int64(r.u64("interval end"))
        if start <= last or end <= start:
            raise BadEventBody(offset, f"interval [{start}, {end}) does not follow {last} "
                                       f"in increasing order")
        last = end
        intervals.append({"start": integer(start), "end": integer(end)})
    sid["n_intervals"] = integer(n_intervals)
    sid["intervals"] = intervals
    return sid


def _read_tag(r: Reader) -> str:
    """Tag::decode_tag: at most 32 bytes, optional blanks around [A-Za-z_][A-Za-z0-9_]*,
    kept lower-cased and trimmed."""
    offset = r.offset
    raw = varlen_string(r, "tag", TAG_MAX_LENGTH)
    tag = raw.strip(_SPACE)
    if tag and not (_is_tag_char(tag[0], 0) and all(_is_tag_char(c, 1) for c in tag[1:])):
        raise BadEventBody(offset, f"invalid tag {raw!r}")
    return tag.decode("ascii").lower()


def _is_tag_char(c: int, pos: int) -> bool:
    return (0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A or c == 0x5F
            or (pos > 0 and 0x30 <= c <= 0x39))


def gtid_set_text(sids: list[dict[str, Any]]) -> str:
    """Gtid_set::to_string: one entry per UUID, tagged sids after its untagged GNOs."""
    merged: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for sid in sids:
        key = (sid["uuid"], sid.get("tag", ""))
        merged[key].extend((_plain(iv["start"]), _plain(iv["end"])) for iv in sid["intervals"])
    entries: list[str] = []
    prev_uuid = None
    for (uuid, tag), intervals in sorted(merged.items()):
        if not intervals:
            continue  # a sid without intervals is not in the set
        part = "" if uuid == prev_uuid else uuid
        if part and entries:
            entries.append(GNO_SID_SEPARATOR)
        entries.append(part)
        if tag:
            entries.append(":" + tag)
        entries.append("".join(":" + _gno_range(s, e) for s, e in _coalesce(intervals)))
        prev_uuid = uuid
    return "".join(entries)


def _coalesce(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _gno_range(start: int, end: int) -> str:
    return str(start) if end == start + 1 else f"{start}-{end - 1}"


def _plain(v: Any) -> int:
    return int(v["value"]) if isinstance(v, dict) else v
