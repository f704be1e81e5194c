"""GTID-family, XA and payload events of the sample binlogs real MySQL 9.7 and MariaDB servers
write during the run (tests/sample_fixtures.py, the real tool's -vvv output beside each), compared
with what mysqlbinlog / mariadb-binlog printed for them.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.decoder import decode_file
from oracle.values import plain
from tests.sample_fixtures import sample_params

# (Begin_load_query and Append_block print their label on the next line: no tab, empty header)
_HEADER = re.compile(r"^#\d{6} +\d+:\d\d:\d\d server id \d+ +end_log_pos (\d+) (?:CRC32 0x[0-9a-f]{8} )?(?:\t(.*))?$")


def _printed(path: Path) -> list[tuple[int, str, list[str]]]:
    """(end_log_pos, header text, the lines up to the next header) per event printed."""
    out: list[tuple[int, str, list[str]]] = []
    for line in path.with_name(path.name + ".vvv.txt").read_text(errors="replace").splitlines():
        m = _HEADER.match(line)
        if m:
            out.append((int(m[1]), m[2] or "", []))
        elif out:
            out[-1][2].append(line)
    return out


def _fields(header: str) -> dict[str, str]:
    return dict(kv.split("=", 1) for kv in header.split("\t") if "=" in kv)


@pytest.mark.parametrize(("profile", "part"), sample_params("mysql"))
def test_mysql_sample(profile, part, sample_binlog):
    path = sample_binlog(profile, part).path
    printed: dict[int, list[tuple[str, list[str]]]] = {}
    for end, header, lines in _printed(path):
        printed.setdefault(end, []).append((header, lines))
    compared = 0
    events = list(decode_file(path))
    assert [e.position for e in events if e.next_position not in printed] == []  # all printed
    for e in events:
        header, lines = printed.get(e.next_position, [("", [])])[0]
        b = e.body
        if e.type_code in (33, 34, 42):
            f = _fields(header)
            assert (int(f["last_committed"]), int(f["sequence_number"])) == (b["last_committed"], b["sequence_number"])
            assert int(f["transaction_length"]) == plain(b["transaction_length"])
            assert int(f["immediate_commit_timestamp"]) == plain(b["immediate_commit_timestamp"])
            assert int(f["original_committed_timestamp"]) == plain(b["original_commit_timestamp"])
            assert f"SET @@SESSION.GTID_NEXT= '{b['gtid']}'/*!*/;" in lines
            assert f"/*!80014 SET @@session.immediate_server_version={b['immediate_server_version']}*//*!*/;" in lines
        elif e.type_code == 35:
            expected = ["# " + line for line in b["gtid_set"].split("\n")] if b["gtid_set"] else ["# [empty]"]
            assert lines[:len(expected)] == expected
        elif e.type_code == 38:
            assert header == f"XA PREPARE {b['xid']}"
            if b["one_phase"]:
                assert f"XA COMMIT {b['xid']} ONE PHASE" in lines
        elif e.type_code == 40:
            f = _fields(header)
            assert (int(f["payload_size"]), f["compression_type"]) == (plain(b["payload_size"]), b["compression_name"])
            assert int(f["uncompressed_size"]) == plain(b["uncompressed_size"])
            # printed after the payload, each with the payload's end_log_pos
            assert len(printed[e.next_position]) == 1 + len(b["events"])
            for inner in b["events"]:
                assert (inner["position"], inner["next_position"]) == (e.position + e.event_size, e.next_position)
        else:
            continue
        compared += 1
    assert compared


@pytest.mark.parametrize(("profile", "part"), sample_params("mariadb"))
def test_mariadb_sample(profile, part, sample_binlog):
    path = sample_binlog(profile, part).path
    printed = {end: (header, lines) for end, header, lines in _printed(path)}
    compared = 0
    events = list(decode_file(path))
    assert [e.position for e in events if e.next_position not in printed] == []  # all printed
    for e in events:
        b = e.body
        header, lines = printed.get(e.next_position, ("", []))
        if e.type_code == 162:
            words = header.split(" ")
            assert words[:2] == ["GTID", b["gtid"]]
            if b["flags2"] & 0x40:  # FL_PREPARED_XA: printed as the group's XA START
                assert f"XA START {b['xid']}/*!*/;" in lines
        elif e.type_code == 163:
            assert header.startswith("Gtid list [" + b["gtid_list"].split("\n")[0])
        elif e.type_code == 161:
            assert header == "Binlog checkpoint " + b["binlog_file_name"]
        elif e.type_code == 38:
            assert any(f"XA PREPARE {b['xid']}" in line for line in [header, *lines])
        else:
            continue
        compared += 1
    assert compared
