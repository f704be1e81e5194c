"""The binlogs the faults are served from, made at run time from a real corpus binlog: the small
one as committed, copies with one Query event of a chosen size, so that the packet payload
(0x00 + event) lands at and around the 16 MB split (0xFFFFFF), and, for the faults production
meets, a real server's rotated files as committed."""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import replace
from pathlib import Path

from oracle.checksum import ChecksumAlg
from oracle.framing import walk

from ..corpus import CASE_FILE
from ..expectations import Expectation
from ..packaged import corpus_dir
from .catalogue import Fault

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


def flavor_of(source: Path) -> str:
    """"mariadb" for a corpus binlog of a MariaDB profile (corpus/mariadb-11.8/...), else "mysql"."""
    return "mariadb" if source.parent.parent.name.startswith("mariadb") else "mysql"


def served_files(fault: Fault, work_dir: Path, source: Path = SMALL_BINLOG) -> list[Path]:
    """The binlogs a client is served under `fault`, in the order the dump reads them: a fault that
    crosses files gets its corpus case of the flavor of `source` (the client's binlog), whole;
    any other one file, `binlog_for`'s. Raises KeyError when the fault has no case of that flavor."""
    if not fault.crosses:
        return [binlog_for(fault.payload_size, work_dir, source)]
    case_dir = CORPUS / dict(fault.crosses)[flavor_of(source)]
    return [case_dir / str(name) for name in json.loads((case_dir / CASE_FILE).read_text())["files"]]


def across(expectations: list[Expectation]) -> Expectation:
    """The expectation of a stream that reads files one after the other: their events in order
    (each at its own file's positions, as a client reports them), or the first file's problem or
    error (the stream cannot get past it)."""
    first_bad = next((x for x in expectations if x.problem is not None or x.error is not None), None)
    if first_bad is not None or len(expectations) == 1:
        return first_bad or expectations[0]
    return replace(expectations[-1], events=[e for x in expectations for e in x.events],
                   event_types=sorted({t for x in expectations for t in x.event_types}))
