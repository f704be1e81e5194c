"""CRC32 as MySQL computes it, checked with an independent implementation (crcmod's CRC-32)
against the checksums real servers stored, including the Format_description rule: the server
computes that event's CRC with LOG_EVENT_BINLOG_IN_USE_F cleared and sets the flag afterwards."""
from __future__ import annotations

import crcmod.predefined
import pytest

from oracle.checksum import event_crc32
from oracle.framing import walk
from tests.external import broken_expectation, manifest

CRC32 = crcmod.predefined.mkPredefinedCrcFun("crc-32")
FILES = [b for b in manifest() if b.checksum_alg == "CRC32" and not broken_expectation(b)]


def _crcmod_event_crc(event: bytes) -> int:
    data = bytearray(event[:-4])
    if data[4] == 15:  # Format_description: the flag is cleared before checksumming
        data[17] &= ~0x01
    return CRC32(bytes(data))


@pytest.mark.parametrize("binlog", FILES, ids=lambda b: b.name)
def test_stored_checksums_equal_an_independent_crc32(binlog):
    data = binlog.path.read_bytes()
    checked = 0
    for raw in walk(data, verify_checksums=False):
        if raw.checksum_stored is None or raw.checksum_alg != 1:
            continue
        event = data[raw.offset:raw.offset + raw.header.event_size]
        assert _crcmod_event_crc(event) == raw.checksum_stored == event_crc32(event), raw.offset
        checked += 1
    assert checked > 0


def test_in_use_flag_is_cleared_only_for_the_format_description():
    fde = bytearray(b"\0" * 4 + bytes([15]) + b"\0" * 12 + b"\x01\x00" + b"x" * 10 + b"\0" * 4)
    other = bytearray(fde)
    other[4] = 2
    cleared = bytearray(fde)
    cleared[17] = 0
    assert event_crc32(bytes(fde)) == CRC32(bytes(cleared[:-4]))
    assert event_crc32(bytes(other)) == CRC32(bytes(other[:-4]))
    assert event_crc32(bytes(fde)) != CRC32(bytes(fde[:-4]))
