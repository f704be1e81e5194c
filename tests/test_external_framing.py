"""Issue 2 acceptance: every external binlog decodes to its end with the events a plain header walk
finds, checksums verified where present; the broken ones stop with the typed error at the right event."""
from __future__ import annotations

import struct

import pytest

from oracle import BinlogError, decode_file
from tests.external import EITHER, broken_expectation, manifest

CASES = manifest()
pytestmark = pytest.mark.skipif(not CASES, reason="../shared/external-binlogs is not there")


def plain_header_walk(data: bytes) -> list[tuple[int, int]]:
    """(position, type code) of each complete event: the simplest possible walk, independent of
    the oracle's framing (v1 logs have 13-byte headers; the sizes are at the same place)."""
    out, pos = [], 4
    while pos + 13 <= len(data):
        type_code, size = data[pos + 4], struct.unpack_from("<I", data, pos + 9)[0]
        if size < 13 or pos + size > len(data):
            break
        out.append((pos, type_code))
        pos += size
    return out


@pytest.mark.parametrize("binlog", CASES, ids=lambda b: b.name)
def test_decodes_to_the_end_or_stops_cleanly(binlog):
    events, error = [], None
    try:
        for e in decode_file(binlog.path):
            events.append(e)
    except BinlogError as e:
        error = e
    expected_broken = broken_expectation(binlog)
    if any(binlog.file.endswith(x) for x in EITHER):
        return  # either outcome is right; reaching here means no other exception escaped
    if expected_broken:
        kinds, event_offset = expected_broken
        assert error is not None, "a file broken on purpose decoded without error"
        assert error.kind in kinds, error
        assert (error.event_offset if error.event_offset is not None else error.offset) == event_offset, error
        return
    assert error is None, f"{error} (event at {error.event_offset})"
    walked = plain_header_walk(binlog.path.read_bytes())
    assert [(e.position, e.type_code) for e in events] == walked
    with_crc = [e for e in events if e.checksum.algorithm == "CRC32"]
    if binlog.checksum_alg == "CRC32":
        assert with_crc and all(e.checksum.verified for e in with_crc)
    else:
        assert not [e for e in events if e.checksum.verified and e.type_code != 15]
