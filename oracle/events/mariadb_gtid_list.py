"""MariaDB GTID_LIST_EVENT (163): the binlog state (last GTID per domain and server) at the
start of a binlog file (Gtid_list_log_event in sql/log_event.cc).

A 4-byte count whose low 28 bits are the number of GTIDs and high 4 bits gl_flags
(FLAG_UNTIL_REACHED, FLAG_IGN_GTIDS), then per GTID domain_id (4), server_id (4), seq_no (8).
`gtid_list` is the list as mariadb-binlog prints it inside "Gtid list [...]": sorted by domain
then seq_no, entries "domain-server-seq_no" joined by ",\n# ".
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import TruncatedEvent
from ..header import Header
from ..reader import Reader
from ..values import integer
from .fields import keep_trailing
from .mariadb_gtid import bit_names, mariadb_post_header_len

GTID_LIST_HEADER_LEN = 4
ELEMENT_SIZE = 4 + 4 + 8
COUNT_MASK = (1 << 28) - 1
GL_FLAGS = {1 << 28: "FLAG_UNTIL_REACHED", 1 << 29: "FLAG_IGN_GTIDS"}


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    mariadb_post_header_len(ctx, header.type_code, GTID_LIST_HEADER_LEN, "Gtid_list", r)
    val = r.u32("count")
    count = val & COUNT_MASK
    gl_flags = val & ~COUNT_MASK
    if count * ELEMENT_SIZE > r.remaining():
        raise TruncatedEvent(r.offset, f"{count} GTIDs need {count * ELEMENT_SIZE} bytes, "
                                       f"{r.remaining()} left")
    gtids = [(r.u32("domain_id"), r.u32("server_id"), r.u64("seq_no")) for _ in range(count)]
    printed = sorted(gtids, key=lambda g: (g[0], g[2]))
    body = {
        "count": count,
        "gl_flags": gl_flags,
        "gl_flags_names": bit_names(gl_flags, GL_FLAGS),
        "list": [{"domain_id": d, "server_id": s, "seq_no": integer(n)} for d, s, n in gtids],
        "gtid_list": ",\n# ".join(f"{d}-{s}-{n}" for d, s, n in printed),
    }
    # MariaDB 10.5+ writes two zero bytes after an empty list.
    return keep_trailing(r, body)
