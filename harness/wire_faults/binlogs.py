"""The binlogs the faults are served from, made at run time from a real corpus binlog: the small
one as committed, and copies with one Query event of a chosen size, so that the packet payload
(0x00 + event) lands at and around the 16 MB split (0xFFFFFF)."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

from oracle.checksum import ChecksumAlg
from oracle.framing import walk

from ..packaged import corpus_dir

CORPUS = corpus_dir()
# MySQL 9.7, CRC32, 48 events of DDL and DML (rows of three kinds): small enough to trickle
SMALL_BINLOG = CORPUS / "mysql-9.7" / "ddl_dml_basic--row" / "binlog.000001"
# MariaDB 11.8 (CRC32, 20 events, rows of three kinds), served to a client that documents it refuses
# MySQL: a server's second binlog, whose Gtid_list is not empty (Debezium's MariaDB connector dies
# on a server's first, finding DM1, before any fault could be injected)
MARIADB_BINLOG = CORPUS / "mariadb-11.8" / "replica_apply--row" / "binlog.000002"
QUERY_EVENT = 2


def with_big_query(src: Path, dst: Path, event_size: int) -> None:
    """src with one Query event of event_size bytes inserted before its final Rotate (log_pos and
    checksum of that Rotate fixed up): the binlog a > 16 MB statement leaves."""
    buf = src.read_bytes()
    events = list(walk(buf, verify_checksums=False))
    last = events[-1]
    crc = last.checksum_alg == ChecksumAlg.CRC32
    head = struct.pack("<IIBHH", 1, 0, 0, 0, 0) + b"\0"  # thread, exec time, db len, error, status len; db
    body_len = event_size - 19 - (4 if crc else 0) - len(head)
    query = (b"SELECT '" + b"x" * (body_len - 9) + b"'")[:body_len]
    event = struct.pack("<IBIIIH", events[-2].header.timestamp, QUERY_EVENT, 1, event_size,
                        last.offset + event_size, 0)
    event += head + query
    event += struct.pack("<I", zlib.crc32(event)) if crc else b""
    rotate = bytearray(buf[last.offset:])
    struct.pack_into("<I", rotate, 13, last.header.log_pos + event_size)
    if crc:
        struct.pack_into("<I", rotate, len(rotate) - 4, zlib.crc32(rotate[:-4]))
    dst.write_bytes(buf[:last.offset] + event + bytes(rotate))


def binlog_for(payload_size: int | None, work_dir: Path, src: Path = SMALL_BINLOG) -> Path:
    """The file a fault is served from: src itself (None), or a copy in work_dir whose big Query
    event travels in a packet payload of payload_size bytes (made once per size)."""
    if payload_size is None:
        return src
    d = work_dir / f"{src.parent.name}-payload-{payload_size:#x}"
    dst = d / src.name
    if not dst.is_file():
        d.mkdir(parents=True, exist_ok=True)
        with_big_query(src, dst, payload_size - 1)  # the payload is 0x00 + the event
    return dst
