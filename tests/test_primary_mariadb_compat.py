"""MariaDB's rewriting for replicas below GTID capability (harness.primary.mariadb.compatible_event),
at the capabilities no capture covers (the capture test covers 0 and 4): send_event_to_slave's
rules, checked on the events of a real MariaDB 10.11 binlog. Every rewritten event keeps its size
and decodes (checksum verified) as the Query or User_var it became."""
from __future__ import annotations

import pytest

from harness.primary import mariadb
from oracle.decoder import decode_file
from oracle.wire.stream import decode_stream_bytes
from oracle.wire.packets import encode_packets
from tests.primary_fixtures import CORPUS

BINLOG = CORPUS / "mariadb-10.11" / "replica_apply--row" / "binlog.000001"


def _events() -> dict[str, bytes]:
    """The first event of each kind the rules distinguish."""
    data = BINLOG.read_bytes()
    out: dict[str, bytes] = {}
    for e in decode_file(BINLOG):
        raw = data[e.position:e.position + e.event_size]
        kind = e.type_name
        if e.type_code == 162:
            kind += "/standalone" if e.body["flags2"] & mariadb.FL_STANDALONE else "/transaction"
        out.setdefault(kind, raw)
    return out


EVENTS = _events()
FDE = EVENTS["FORMAT_DESCRIPTION_EVENT"]


def _decoded(event: bytes) -> dict:
    """The event decoded as a stream after the file's Format_description (checksums verified)."""
    wire = encode_packets(b"\0" + FDE, 1)[0] + encode_packets(b"\0" + event, 2)[0]
    return list(decode_stream_bytes(wire))[-1]


def _sent(kind: str, capability: int, flags: int = 0) -> bytes | None:
    return mariadb.compatible_event(EVENTS[kind], flags, capability, crc=True)


def test_the_binlog_has_every_kind() -> None:
    assert {"GTID_EVENT/standalone", "GTID_EVENT/transaction", "ANNOTATE_ROWS_EVENT",
            "GTID_LIST_EVENT", "BINLOG_CHECKPOINT_EVENT"} <= set(EVENTS), sorted(EVENTS)


@pytest.mark.parametrize("capability", [1, 2, 3])
def test_a_transaction_gtid_becomes_begin_of_the_same_size(capability: int) -> None:
    sent = _sent("GTID_EVENT/transaction", capability)
    assert sent is not None and len(sent) == len(EVENTS["GTID_EVENT/transaction"])
    record = _decoded(sent)
    assert record["type"] == "QUERY_EVENT" and record["body"]["query"] == "BEGIN"
    assert "LOG_EVENT_SUPPRESS_USE_F" in record["flags"]["names"]


def test_a_standalone_gtid_is_a_dummy_below_2_and_left_out_from_2() -> None:
    dummy = _sent("GTID_EVENT/standalone", 1)
    assert dummy is not None and _decoded(dummy)["body"]["query"].startswith("# Dum")
    assert _sent("GTID_EVENT/standalone", 2) is None and _sent("GTID_EVENT/standalone", 3) is None


def test_annotate_rows_unasked() -> None:
    assert _sent("ANNOTATE_ROWS_EVENT", 0)[4] == 2                       # dummy Query
    assert _decoded(_sent("ANNOTATE_ROWS_EVENT", 0))["body"]["query"].startswith(
        "# Dummy event replacing event type 160 that slave cannot handle.")
    assert _sent("ANNOTATE_ROWS_EVENT", 1) == EVENTS["ANNOTATE_ROWS_EVENT"]  # known: as it is
    assert _sent("ANNOTATE_ROWS_EVENT", 2) is None and _sent("ANNOTATE_ROWS_EVENT", 4) is None
    assert _sent("ANNOTATE_ROWS_EVENT", 2, flags=2) == EVENTS["ANNOTATE_ROWS_EVENT"]


def test_checkpoint_and_gtid_list_by_capability() -> None:
    assert _decoded(_sent("BINLOG_CHECKPOINT_EVENT", 1))["type"] == "QUERY_EVENT"
    assert _sent("BINLOG_CHECKPOINT_EVENT", 2) is None
    assert _sent("BINLOG_CHECKPOINT_EVENT", 3) == EVENTS["BINLOG_CHECKPOINT_EVENT"]
    small = _decoded(_sent("GTID_LIST_EVENT", 1))          # 29 bytes: too short for a Query
    assert small["type"] == "USER_VAR_EVENT"
    assert _sent("GTID_LIST_EVENT", 3) is None
    assert _sent("GTID_LIST_EVENT", 4) == EVENTS["GTID_LIST_EVENT"]
