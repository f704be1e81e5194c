"""open-replicator alone against real servers: the adapter's OpenReplicator (StreamTestee,
configured as Maxwell configured it, docs/findings.md) connected straight to a real MySQL 9.7
or MariaDB 11.8, no harness primary in between, and its FileBasedBinlogParser over the file the
same server wrote. Each defect recorded in harness/expected/open-replicator*.txt shows here
beside a control the library gets right. Reproducers: corpus/findings/open-replicator/."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.jvm import RUNTIME
from oracle.decoder import decode_file

from .library_alone.binlogs import closed_copy
from .parser_builds import built_folder
from .server_fixtures import replication_user_sql, start_server
from .test_binlog_connector_java_live import PASSWORD, USER, dump, library_stream, rows_of

pytestmark = pytest.mark.server
__all__ = ["start_server"]

FINDINGS = Path(__file__).resolve().parent.parent / "corpus" / "findings" / "open-replicator"
CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    return RUNTIME.command(built_folder(RUNTIME, "open-replicator"))


def library_file(argv: list[str], path: Path) -> dict[str, Any]:
    request = {"type": "parse", "id": 1, "path": str(path)}
    proc = subprocess.run(argv + ["file"], input=json.dumps(request) + "\n", capture_output=True,
                          text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2, proc.stderr[-2000:]
    return json.loads(lines[1])


def reproducer(name: str) -> str:
    return (FINDINGS / name / "repro.sql").read_text()


def test_table_map_optional_metadata(start_server, tmp_path, adapter):
    """OR1: in the file MySQL 9.7 wrote, the Table_map of d.n (INT, VARCHAR: optional metadata)
    stops the parse with the library's 'unconsumed bytes' assertion; d.dates (DATE only, no
    optional metadata) decodes before it, its row there (the control). OR3 on the side: the
    Format_description's server_version keeps the NUL padding of its 50-byte field. OR0: the
    stream client cannot even log in to MySQL 9.7 (no caching_sha2_password); the same account
    shape logs in to MariaDB in test_mariadb_event_types (the control)."""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], {})
    server.execute(replication_user_sql(USER, PASSWORD) + reproducer("table-map-optional-metadata"))
    file = server.binlog_files()[0]
    path = closed_copy(server, file, tmp_path)
    oracle = [e.to_json() for e in decode_file(path)]
    reply = library_file(adapter, path)
    assert reply["type"] == "error" and reply["kind"] == "RuntimeException"
    assert "unconsumed bytes" in reply["message"] and "eventType=19" in reply["message"]
    assert len(rows_of(reply["events"])) == 1 and len(rows_of(oracle)) == 3
    failing_map = [e for e in oracle if e["type_code"] == 19][1]
    assert failing_map["body"]["table"] == "n"
    # the library hands the Table_map to the listener, then finds the bytes it left behind
    assert reply["events"][-1]["position"] == failing_map["position"] and reply["events"][-1]["type_code"] == 19
    fde = next(e for e in reply["events"] if e["type_code"] == 15)
    expected = next(e for e in oracle if e["type_code"] == 15)["body"]["server_version"]
    assert fde["body"]["server_version"].rstrip("\x00") == expected != fde["body"]["server_version"]
    login = library_stream(adapter, server.port, file, server.binlog_sizes()[file])
    assert login["type"] == "error" and login["kind"] == "TransportException"
    assert "authentication protocol" in login["message"] and login["events"] == []


def test_mariadb_event_types(start_server, tmp_path, adapter):
    """OR2: in the file MariaDB 11.8 wrote, the parse stops at the Gtid_list (type 163, the
    second event) with ArrayIndexOutOfBoundsException; the Format_description before it is
    delivered (the control). Over the wire the server hides its own event types from a replica
    that announced no MariaDB capability, and the same binlog arrives (login works: OR0's
    control)."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mariadb-11.8", {}, reproducer("mariadb-event-types"))
    assert [e["type_code"] for e in oracle][:2] == [15, 163]
    assert reply["type"] == "events" and 163 not in [e["type_code"] for e in reply["events"]]
    from_file = library_file(adapter, next(p for p in tmp_path.iterdir() if p.is_file()))
    assert from_file["kind"] == "ArrayIndexOutOfBoundsException" and "163" in from_file["message"]
    assert [e["type_code"] for e in from_file["events"]] == [15]


def test_mariadb_compressed_stream(start_server, tmp_path, adapter):
    """OR2 over the wire: a compressed event (log_bin_compress=ON) ends the dump with
    ArrayIndexOutOfBoundsException; the short insert before it arrived (the control)."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mariadb-11.8", {"binlog_format": "ROW"},
                         reproducer("mariadb-compressed-stream"))
    assert any(e["type_code"] >= 165 for e in oracle)
    assert reply["type"] == "error" and reply["kind"] == "ArrayIndexOutOfBoundsException"
    assert rows_of(reply["events"]) == [[1, "x"]]
    assert "166" in reply["message"]


def test_mariadb_xa_stream(start_server, tmp_path, adapter):
    """OR2's limit: an XA transaction ends the dump with MariaDB's error 1236 (no MariaDB replica
    protocol); the plain transaction before it arrived (the control)."""
    reply, _ = dump(start_server, tmp_path, adapter, "mariadb-10.11", {}, reproducer("mariadb-xa-stream"))
    assert reply["type"] == "error" and "1236" in reply["message"]
    assert "backwards-compatible" in reply["message"]
    assert len(rows_of(reply["events"])) == 1 or any(e["type_code"] == 16 for e in reply["events"])


def test_truncated_file_accepted(adapter, tmp_path):
    """OR4: FileBasedBinlogParser ends a file cut inside an event as if it were complete (its
    worker swallows the EOFException): the events before are delivered and no error is raised.
    The control: the whole file gives those events and the rest."""
    whole = CORPUS / "mysql-9.7" / "ddl_dml_basic--statement" / "binlog.000001"
    full = library_file(adapter, whole)
    assert full["type"] == "events" and len(full["events"]) > 4
    cut_at = full["events"][3]["position"] + 10  # inside the fourth event's header
    truncated = tmp_path / "binlog.000001"
    truncated.write_bytes(whole.read_bytes()[:cut_at])
    reply = library_file(adapter, truncated)
    assert reply["type"] == "events"
    assert reply["events"] == full["events"][:3]
