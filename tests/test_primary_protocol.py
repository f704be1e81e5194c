"""`harness serve` against bad and demanding clients, through raw sockets speaking the protocol
(the clients under test are the malformed ones; the real clients are in test_primary_clients):
each bad client gets the real server's error or a close, no traceback, no hang, and the others
are served; 50 concurrent dumps; idle and stalled clients time out; heartbeats; GTID dumps;
the statements replication clients send, through pymysql."""
from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.decoder import decode_file
from oracle.framing import walk
from oracle.wire.packets import (CLIENT_DEPRECATE_EOF, CLIENT_PLUGIN_AUTH, CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA,
                                 CLIENT_PROTOCOL_41, CLIENT_SECURE_CONNECTION, MAX_PACKET, ErrPacket,
                                 encode_packets, is_eof, packet_header)
from oracle.wire.stream import decode_stream_bytes
from tests.primary_fixtures import CORPUS, ROOT, serving, with_big_query

pymysql = pytest.importorskip("pymysql")  # installed with mysql-replication (the parsers extra)

MYSQL_CASE = CORPUS / "mysql-9.7/json--row"
MARIADB_CASE = CORPUS / "mariadb-10.11/rotation--row"
CAPS = (CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
        | CLIENT_DEPRECATE_EOF)


class RawClient:
    """Just enough of a client to log in with an empty password and then misbehave."""

    def __init__(self, served, timeout: float = 15) -> None:
        self.sock = served.connect(timeout)
        self.seq = 0

    def read(self) -> bytes:
        header = self._exact(4)
        n = int.from_bytes(header[:3], "little")
        self.seq = header[3] + 1
        payload = self._exact(n)
        if n == MAX_PACKET:
            return payload + self.read()
        return payload

    def _exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf

    def send(self, payload: bytes) -> None:
        data, self.seq = encode_packets(payload, self.seq)
        self.sock.sendall(data)

    def login(self) -> None:
        greeting = self.read()
        plugin = greeting.rstrip(b"\0").rsplit(b"\0", 1)[-1]
        self.send(struct.pack("<IIB23x", CAPS, 1 << 24, 255) + b"root\0" + b"\0" + plugin + b"\0")
        ok = self.read()
        assert ok[:1] == b"\0", ok

    def command(self, payload: bytes) -> bytes:
        self.seq = 0
        self.send(payload)
        return self.read()

    def query(self, sql: str) -> bytes:
        return self.command(b"\x03" + sql.encode())

    def closed_within(self, seconds: float) -> bool:
        self.sock.settimeout(seconds)
        try:
            while self.sock.recv(65536):
                pass
            return True
        except (socket.timeout, TimeoutError):
            return False
        except OSError:
            return True

    def dump(self, file: str, pos: int = 4, flags: int = 1, server_id: int = 7) -> list[bytes]:
        """COM_BINLOG_DUMP; the payloads until EOF or ERR."""
        self.seq = 0
        self.send(b"\x12" + struct.pack("<IHI", pos, flags, server_id) + file.encode())
        out = []
        while True:
            p = self.read()
            out.append(p)
            if is_eof(p) or p[:1] == b"\xff":
                return out


def _err(payload: bytes) -> ErrPacket:
    assert payload[:1] == b"\xff", payload[:40]
    return ErrPacket.parse(payload)


def _stream(payloads: list[bytes]) -> bytes:
    """The payloads framed again as one captured stream (sequence ids from 1, as after a dump)."""
    wire, seq = b"", 1
    for p in payloads:
        chunk, seq = encode_packets(p, seq)
        wire += chunk
    return wire


def _events(payloads: list[bytes]) -> list[bytes]:
    return [p[1:] for p in payloads if p[:1] == b"\0"]


def _serve(tmp_path: Path, *extra: str, case: Path = MYSQL_CASE):
    return serving([case], tmp_path, *extra, password="")


def test_a_dump_sends_rotate_fde_then_the_file(tmp_path: Path) -> None:
    data = (MYSQL_CASE / "binlog.000001").read_bytes()
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        assert c.query("SET @source_binlog_checksum = 'CRC32'")[:1] == b"\0"
        events = _events(c.dump("binlog.000001"))
    rotate = events[0]
    assert rotate[4] == 4 and struct.unpack_from("<IH", rotate, 13) == (0, 0x20)  # log_pos 0, ARTIFICIAL
    assert rotate[19:27] == struct.pack("<Q", 4) and rotate[27:-4] == b"binlog.000001"
    assert b"".join(events[1:]) == data[4:]


def test_a_dump_mid_file_clears_the_fde_log_pos(tmp_path: Path) -> None:
    data = (MYSQL_CASE / "binlog.000001").read_bytes()
    raws = list(walk(data))
    start = raws[3].offset
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        events = _events(c.dump("binlog.000001", start))
    fde = events[1]
    assert fde[4] == 15 and struct.unpack_from("<I", fde, 13)[0] == 0
    assert b"".join(events[2:]) == data[start:]
    records = list(decode_stream_bytes(_stream([b"\0" + e for e in events])))
    assert records[1]["checksum"]["verified"] is True  # the checksum was recomputed


@pytest.mark.parametrize("file,pos,message", [
    ("binlog.000404", 4, "Could not find first log file name in binary log index file"),
    ("binlog.000001", 10 ** 7, "Client requested source to start replication from position > file size"),
    ("binlog.000001", 2, "Client requested source to start replication from position < 4"),
])
def test_a_dump_of_a_missing_file_or_position_gets_1236(tmp_path: Path, file: str, pos: int, message: str) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        err = _err(c.dump(file, pos)[-1])
        assert (err.code, err.message) == (1236, message)
        assert c.closed_within(5)


@pytest.mark.parametrize("where", ["header", "body"])
def test_a_truncated_file_ends_the_dump_with_the_coordinates(tmp_path: Path, where: str) -> None:
    """Cut in the last event's header or body: the events before it, then ERR 1236, never a partial
    packet of the cut event (the real sender reads an event whole before sending it)."""
    data = (MYSQL_CASE / "binlog.000001").read_bytes()
    last = list(walk(data, verify_checksums=False))[-1]
    keep = last.offset + (10 if where == "header" else 19 + 2)  # 19: the v4 header
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "binlog.000001").write_bytes(data[:keep])
    with serving([cut], tmp_path, password="") as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        payloads = c.dump("binlog.000001")
        log = served.stderr()
    err = _err(payloads[-1])
    assert err.code == 1236 and err.message.startswith(
        "binlog truncated in the middle of event; consider out of disk space on source; "
        "the first event 'binlog.000001' at 4, the last event read from './binlog.000001' at ")
    assert "served as it is" in log
    assert b"".join(_events(payloads)[1:]) == data[:len(b"".join(_events(payloads)[1:])) + 4][4:]


@pytest.mark.parametrize("pos", [2, 10 ** 7])
def test_mariadb_impossible_position(tmp_path: Path, pos: int) -> None:
    with _serve(tmp_path, case=MARIADB_CASE) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        err = _err(c.dump("binlog.000002", pos)[-1])
    assert err.message == ("Client requested master to start replication from impossible position; the first "
                           f"event 'binlog.000002' at {pos}, the last event read from 'binlog.000002' at 4, the "
                           "last byte read from 'binlog.000002' at 4.")


def test_a_client_that_never_announced_checksums_is_refused(tmp_path: Path) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        err = _err(c.dump("binlog.000001")[-1])
    assert err.code == 1236 and "can not handle replication events with the checksum" in err.message


def test_unknown_commands_and_statements_get_errors_and_the_connection_stays(tmp_path: Path) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        assert _err(c.command(b"\x99garbage")).code == 1047
        assert _err(c.command(b"")).code == 1047
        err = _err(c.query("DROP DATABASE production"))
        assert err.code == 1235 and "DROP DATABASE production" in err.message
        assert c.command(b"\x0e")[:1] == b"\0"  # COM_PING


def test_a_statement_above_16mb_is_reassembled(tmp_path: Path) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        big = "SELECT '" + "x" * (MAX_PACKET + 100) + "'"
        err = _err(c.query(big))  # sent as two packets, answered as one statement
        assert err.code == 1235 and f"statement of {len(big)} characters: 'SELECT 'xxx" in err.message
        assert c.command(b"\x0e")[:1] == b"\0"


@pytest.mark.parametrize("statement", [
    "SELECT " + "/*" * 8000,
    "SELECT " + "x FROM information_schema.columns " * 450,
    "SELECT " + "a " * 8000,
    "SET @a = '" + "\\'" * 5000,
], ids=["unclosed-comments", "many-froms", "many-words", "unclosed-escapes"])
def test_crafted_statements_are_answered(tmp_path: Path, statement: str) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        assert c.query(statement)[:1] in (b"\xff", b"\x01")  # an error or a result set, not a hang
        assert c.command(b"\x0e")[:1] == b"\0"


def test_a_length_past_max_allowed_packet_gets_1153_and_a_close(tmp_path: Path) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        chunk = b"\x03" + b"y" * (MAX_PACKET - 1)
        c.sock.sendall(packet_header(MAX_PACKET, 0) + chunk)
        for seq in range(1, 4):
            c.sock.sendall(packet_header(MAX_PACKET, seq) + b"y" * MAX_PACKET)
        c.sock.sendall(packet_header(MAX_PACKET, 4))  # the 5th 16 MB packet would pass 64 MiB
        err = _err(c.read())
        assert err.code == 1153
        assert c.closed_within(5)


@pytest.mark.parametrize("garbage", [b"\x05\x00\x00\x01hello", b"\x10\x00\x00\x01" + bytes(16)])
def test_garbage_instead_of_a_handshake_gets_bad_handshake(tmp_path: Path, garbage: bytes) -> None:
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.read()
        c.sock.sendall(garbage)
        err = _err(c.read())
        assert (err.code, err.sql_state) == (1043, "08S01")
        assert c.closed_within(5)


def _full_dump_ok(served, file: str = "binlog.000001") -> bool:
    c = RawClient(served)
    c.login()
    c.query("SET @master_binlog_checksum = 'CRC32'")
    payloads = c.dump(file)
    return is_eof(payloads[-1]) and len(_events(payloads)) > 10


def test_half_sent_packets_and_http_garbage_time_out_without_disturbing_others(tmp_path: Path) -> None:
    with _serve(tmp_path, "--idle-timeout", "2") as served:
        half = RawClient(served)
        half.login()
        half.sock.sendall(b"\x64\x00\x00\x00\x03SELEC")  # 100 bytes announced, 6 sent
        http = RawClient(served)
        http.read()
        http.sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        started = time.monotonic()
        assert _full_dump_ok(served)
        assert half.closed_within(6) and http.closed_within(6)
        assert time.monotonic() - started < 8
        log = served.stderr()
    assert "half-sent packet" in log


def test_an_idle_client_is_told_and_disconnected(tmp_path: Path) -> None:
    with _serve(tmp_path, "--idle-timeout", "1") as served:
        c = RawClient(served)
        c.login()
        time.sleep(1.5)
        err = _err(c.read())
        assert err.code == 4031
        assert c.closed_within(3)


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


def test_clients_that_stop_reading_hold_little_memory_and_are_dropped(tmp_path: Path) -> None:
    """Five clients stop reading in the middle of a 40 MB event: the server holds about a write
    buffer for each (not the event), drops them after --write-timeout, and serves the others."""
    big = tmp_path / "big"
    big.mkdir()
    with_big_query(MYSQL_CASE / "binlog.000001", big / "binlog.000001", 40 * 1024 * 1024)
    with serving([big], tmp_path, "--write-timeout", "4", password="") as served:
        before = _rss_kib(served.proc.pid)
        stuck = []
        for i in range(5):
            c = RawClient(served)
            c.login()
            c.query("SET @master_binlog_checksum = 'CRC32'")
            c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            c.seq = 0
            # each its own server_id: a dump of the same replica would end the one before it
            c.send(b"\x12" + struct.pack("<IHI", 4, 1, 9 + i) + b"binlog.000001")  # and never read
            stuck.append(c)
        time.sleep(1.5)
        grown_mib = (_rss_kib(served.proc.pid) - before) / 1024
        assert grown_mib < 40, f"the server grew by {grown_mib:.0f} MiB for 5 stalled clients"
        assert _full_dump_ok(served)
        deadline = time.monotonic() + 20
        while served.stderr().count("stopped reading") < 5 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert served.stderr().count("stopped reading") == 5


def test_a_tls_client_that_stops_reading_is_dropped_cleanly(tmp_path: Path) -> None:
    """Over TLS a write that times out used to leave the write buffer exported by ssl's sendall,
    so clearing it raised BufferError: a traceback per client, and the drop never logged."""
    import ssl

    big = tmp_path / "big"
    big.mkdir()
    with_big_query(MYSQL_CASE / "binlog.000001", big / "binlog.000001", 40 * 1024 * 1024)
    with serving([big], tmp_path, "--write-timeout", "2", password="") as served:
        ctx = ssl.create_default_context()
        ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE  # the primary's self-signed certificate
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="", ssl=ctx)
        try:
            assert conn.get_proto_info() and isinstance(conn._sock, ssl.SSLSocket)
            conn.query("SET @master_binlog_checksum = 'CRC32'")
            conn._execute_command(0x12, struct.pack("<IHI", 4, 1, 9) + b"binlog.000001")  # and never read
            deadline = time.monotonic() + 20
            while "stopped reading" not in served.stderr() and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            conn._sock.close()
        assert "stopped reading" in served.stderr()
        assert "Traceback" not in served.stderr() and "BufferError" not in served.stderr()


def test_fifty_concurrent_dumps_get_the_whole_file(tmp_path: Path) -> None:
    data = (MYSQL_CASE / "binlog.000001").read_bytes()
    results: list[bytes | Exception] = []

    def one(served, server_id: int) -> None:
        try:
            c = RawClient(served, timeout=60)
            c.login()
            c.query("SET @master_binlog_checksum = 'CRC32'")
            results.append(b"".join(_events(c.dump("binlog.000001", server_id=server_id))[1:]))
        except Exception as e:  # reported below with the others
            results.append(e)

    # each its own server_id, as replicas must have (a second dump of one replica ends the first)
    with _serve(tmp_path, "--quiet") as served:
        threads = [threading.Thread(target=one, args=(served, 100 + i)) for i in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert len(results) == 50
    assert all(r == data[4:] for r in results), [r for r in results if not isinstance(r, bytes)][:3]


@pytest.mark.parametrize("case, code, words", [
    (MYSQL_CASE, 1236, "A replica with the same server_uuid/server_id as this replica has connected to the source; "
                       "the first event 'binlog.000001' at 4, the last event read from './binlog.000001' at "),
    (CORPUS / "mysql-5.7/ddl_dml_basic--row", 1236, "A slave with the same server_uuid/server_id as this slave has "
                                                    "connected to the master; the first event 'binlog.000001' at 4"),
    (MARIADB_CASE, 4052, "A slave with the same server_id is already connected; the first event 'binlog.000001' at 4, "
                         "the last event read from 'binlog.000003' at "),
], ids=["mysql-9.7", "mysql-5.7", "mariadb-10.11"])
def test_a_second_dump_of_the_same_replica_ends_the_first(tmp_path: Path, case: Path, code: int, words: str) -> None:
    """As measured on real 9.7, 5.7 and MariaDB 11.8 servers: a blocking dump waiting at the end is
    ended with ERR (MySQL 1236, MariaDB 4052) when a dump with its server_id starts; one with another
    server_id is not, nor, on MySQL, one whose @slave_uuid differs (server_id 0: test_primary_running_dumps.py)."""
    with serving([case], tmp_path, password="") as served:
        def blocking(server_id: int, uuid: str = "") -> RawClient:
            c = RawClient(served, timeout=20)
            c.login()
            c.query("SET @master_binlog_checksum = 'CRC32'")
            if uuid:
                c.query(f"SET @slave_uuid = '{uuid}'")
            c.seq = 0
            c.send(b"\x12" + struct.pack("<IHI", 4, 0, server_id) + b"binlog.000001")
            return c

        def ended(c: RawClient) -> bytes:
            while (p := c.read())[:1] != b"\xff":
                pass
            return p

        first, other = blocking(77), blocking(78)
        time.sleep(0.5)
        second = blocking(77)
        err = ended(first)
        assert struct.unpack_from("<H", err, 1)[0] == code and err[9:].decode().startswith(words), err
        time.sleep(1.0)
        for still in (other, second):
            assert not still.closed_within(1.0)  # its events read, then open: waiting at the end
    if "mysql-" in case.parent.name:
        with serving([case], tmp_path, password="") as served:
            a = blocking(5, "5a1e0c1d-0000-4000-8000-000000000001")
            blocking(5, "5a1e0c1d-0000-4000-8000-000000000002")  # another replica: its UUID differs
            time.sleep(1.0)
            a.sock.settimeout(1.0)
            a_events = [a.read() for _ in range(3)]  # its dump goes on
            assert all(p[:1] == b"\0" for p in a_events)
            blocking(6, "5a1e0c1d-0000-4000-8000-000000000001")  # the same replica, by UUID
            a.sock.settimeout(20)
            assert struct.unpack_from("<H", ended(a), 1)[0] == 1236


def _heartbeats_after_blocking_dump(served, name: str, count: int = 3) -> list[bytes]:
    """The events of a blocking dump of `name` (CRC32, 0.2 s heartbeats) up to its `count`th heartbeat."""
    c = RawClient(served)
    c.login()
    c.query("SET @master_binlog_checksum = 'CRC32'")
    c.query("SET @master_heartbeat_period = 200000000")  # 0.2 s, in nanoseconds
    c.seq = 0
    c.send(b"\x12" + struct.pack("<IHI", 4, 0, 77) + name.encode())
    events = []
    while sum(1 for e in events if e[4] == 27) < count:
        events.append(c.read()[1:])
    c.sock.close()
    return events


def _heartbeat_coordinates(beat: bytes) -> tuple[str, int]:
    assert beat[4] == 27 and zlib.crc32(beat[:-4]) == struct.unpack_from("<I", beat, len(beat) - 4)[0]
    return beat[19:-4].decode(), struct.unpack_from("<I", beat, 13)[0]


def test_a_blocking_dump_sends_heartbeats_until_the_client_leaves(tmp_path: Path) -> None:
    """json--row's server rotated to binlog.000002 (FLUSH BINARY LOGS), which the case does not
    hold: after the Rotate, where the client now is, the heartbeats name binlog.000002 at 4 (a real
    server names the file it went on to, docs/primary.md; naming binlog.000001 made a MySQL 5.7
    replica stop: "could not queue event from master")."""
    with _serve(tmp_path) as served:
        events = _heartbeats_after_blocking_dump(served, "binlog.000001")
        data = (MYSQL_CASE / "binlog.000001").read_bytes()
        sent = [e for e in events if e[4] != 27]
        assert b"".join(sent[1:]) == data[4:], "the whole file, then only heartbeats"
        last = list(walk(data, verify_checksums=False))[-1]
        assert last.header.type_code == 4 and data[last.body_start + 8:last.body_end] == b"binlog.000002"
        assert {_heartbeat_coordinates(e) for e in events if e[4] == 27} == {("binlog.000002", 4)}
        deadline = time.monotonic() + 5
        while "dump ended" not in served.stderr() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "dump ended" in served.stderr()


def test_heartbeats_after_a_file_without_a_closing_rotate_name_its_end(tmp_path: Path) -> None:
    """shutdown--row's file ends with a Stop event: the client stays in it, at its end."""
    case = CORPUS / "mysql-9.7/shutdown--row"
    with _serve(tmp_path, case=case) as served:
        events = _heartbeats_after_blocking_dump(served, "binlog.000001", count=2)
    size = (case / "binlog.000001").stat().st_size
    assert [e[4] for e in events if e[4] != 27][-1] == 3  # STOP_EVENT
    assert {_heartbeat_coordinates(e) for e in events if e[4] == 27} == {("binlog.000001", size)}


def _mysql_gtid_set(sid: str, start: int, end: int) -> bytes:
    return struct.pack("<Q", 1) + uuid.UUID(sid).bytes + struct.pack("<Qqq", 1, start, end)


def test_mysql_gtid_dump_skips_what_the_client_has(tmp_path: Path) -> None:
    gtids = [e.body for e in decode_file(MYSQL_CASE / "binlog.000001") if e.type_code == 33]
    sid = gtids[0]["sid"]
    gset = _mysql_gtid_set(sid, 1, 3)  # the client has GNO 1 and 2
    with _serve(tmp_path) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        c.seq = 0
        c.send(b"\x1e" + struct.pack("<HII", 0x04 | 0x01, 5, 13) + b"binlog.000001" + struct.pack("<QI", 4, len(gset))
               + gset)
        payloads = []
        while not payloads or not (is_eof(payloads[-1]) or payloads[-1][:1] == b"\xff"):
            payloads.append(c.read())
    records = list(decode_stream_bytes(_stream(payloads)))
    sent = [r["body"]["gno"] for r in records if r.get("type") == "GTID_LOG_EVENT"]
    assert sent and min(sent) == 3
    assert any(r.get("type") == "HEARTBEAT_LOG_EVENT" for r in records)


@pytest.mark.parametrize("state,first_file", [("0-1-2", "binlog.000001"), ("0-1-3", "binlog.000002"),
                                                   ("0-1-4", "binlog.000003")])
def test_mariadb_gtid_dump_starts_after_slave_connect_state(tmp_path: Path, state: str, first_file: str) -> None:
    """The start file is the last one whose Gtid_list the state covers; held groups are skipped."""
    lists = {f.name: [e.body["gtid_list"] for e in decode_file(f) if e.type_code == 163][0]
             for f in sorted(MARIADB_CASE.glob("binlog.00000?"))}
    with _serve(tmp_path, case=MARIADB_CASE) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        c.query(f"SET @slave_connect_state = '{state}'")
        payloads = c.dump("", 4)
    records = list(decode_stream_bytes(_stream(payloads)))
    assert records[0]["body"]["new_log_ident"] == first_file, lists
    assert records[1]["body"]["created"] == 0  # MariaDB clears it for a GTID start
    seqs = [r["body"]["seq_no"] for r in records if r.get("type") == "GTID_EVENT"]
    assert seqs and min(seqs) == int(state.rsplit("-", 1)[1]) + 1 and records[-1]["packet"] == "eof"


def test_statements_replication_clients_send(tmp_path: Path) -> None:
    with serving([MYSQL_CASE], tmp_path, password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        with conn.cursor() as cur:
            cur.execute("SELECT @@GLOBAL.GTID_MODE, @@global.server_id, @@server_uuid, @@binlog_checksum")
            assert cur.fetchone()[:2] == ("ON", 1)
            cur.execute("SHOW BINARY LOG STATUS")
            row = cur.fetchone()
            assert row[:2] == ("binlog.000001", (MYSQL_CASE / "binlog.000001").stat().st_size) and ":1-" in row[4]
            with pytest.raises(pymysql.err.ProgrammingError, match="1064"):
                cur.execute("SHOW MASTER STATUS")  # gone in MySQL 8.4
            with pytest.raises(pymysql.err.OperationalError, match="Unknown system variable"):
                cur.execute("SELECT @@rpl_semi_sync_master_enabled")  # no semi-sync plugin
            cur.execute("SHOW VARIABLES LIKE 'rpl_semi_sync%'")
            assert cur.fetchall() == ()
            cur.execute("SET @master_heartbeat_period = 1000000000, @source_binlog_checksum = @@binlog_checksum")
            cur.execute("SELECT @source_binlog_checksum")
            assert cur.fetchone() == ("CRC32",)
            cur.execute("SHOW BINARY LOGS")
            assert cur.fetchall() == (("binlog.000001", (MYSQL_CASE / "binlog.000001").stat().st_size, "No"),)
        conn.close()
    with serving([MARIADB_CASE], tmp_path, password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        with conn.cursor() as cur:
            cur.execute("SELECT @@gtid_binlog_pos, @@gtid_domain_id, @@rpl_semi_sync_master_enabled")
            last = [e.body["gtid"] for f in sorted(MARIADB_CASE.glob("binlog.00000?"))
                    for e in decode_file(f) if e.type_code == 162][-1]
            assert cur.fetchone() == (last, 0, 0)
            cur.execute("SHOW MASTER STATUS")
            assert cur.fetchone()[0] == "binlog.000003"
        assert conn.get_server_info().startswith("5.5.5-10.11")
        conn.close()


@pytest.mark.parametrize("case, refused", [(CORPUS / "mysql-8.0/json--row", True),
                                            (CORPUS / "mysql-5.7/json--row", False)])
def test_a_client_without_plugin_auth_and_a_caching_sha2_account_gets_1251(tmp_path: Path, case: Path,
                                                                            refused: bool) -> None:
    """As a real 8.0 does (seen with zongji 0.5.1, whose mysqljs client never announces
    CLIENT_PLUGIN_AUTH): no auth switch for such a client, ER_NOT_SUPPORTED_AUTH_MODE instead;
    where the account's plugin is mysql_native_password (5.7) it logs in."""
    with _serve(tmp_path, case=case) as served:
        c = RawClient(served)
        c.read()
        c.send(struct.pack("<IIB23x", CAPS & ~CLIENT_PLUGIN_AUTH, 1 << 24, 33) + b"root\0\0")
        reply = c.read()
        if refused:
            err = _err(reply)
            assert (err.code, err.sql_state) == (1251, "08004") and "consider upgrading" in err.message
        else:
            assert reply[:1] == b"\0", reply


def test_non_loopback_host_needs_a_password() -> None:
    proc = subprocess.run([sys.executable, "-m", "harness", "serve", str(MYSQL_CASE), "--host", "0.0.0.0"],
                          cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 2 and b"give --password" in proc.stderr and not proc.stdout


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory):
    with serving([MYSQL_CASE], tmp_path_factory.mktemp("fuzz"), "--idle-timeout", "3", password="") as served:
        yield served


def _reply_or_close(c: RawClient) -> bytes | None:
    try:
        return c.read()
    except (ConnectionError, OSError):
        return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200))
def test_any_command_gets_a_reply_or_a_close(shared_server, payload: bytes) -> None:
    c = RawClient(shared_server, timeout=10)
    c.login()
    c.query("SET @master_binlog_checksum = 'CRC32'")
    c.seq = 0
    c.send(payload)
    first = _reply_or_close(c)
    assert first is None or first[:1] in (b"\x00", b"\xff", b"\xfe") or first[:1] < b"\xfb"
    c.sock.close()
    fresh = RawClient(shared_server, timeout=10)
    fresh.login()
    assert fresh.command(b"\x0e")[:1] == b"\0"  # the server is still there
    fresh.sock.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=120))
def test_any_handshake_response_gets_an_answer_or_a_close(shared_server, garbage: bytes) -> None:
    c = RawClient(shared_server, timeout=10)
    c.read()
    c.seq = 1
    c.send(garbage)
    reply = _reply_or_close(c)
    assert reply is None or reply[:1] in (b"\x00", b"\xff", b"\xfe", b"\x01")
    c.sock.close()


@pytest.mark.parametrize("server", ["mysql-9.7", "mariadb-11.8"])
def test_column_lookups_of_a_bare_file_come_from_its_ddl(tmp_path: Path, server: str) -> None:
    """A binlog served without its case.json: the CREATE TABLE it holds, the charsets its
    Table_maps name. (A case's own record: tests/test_primary_lookups.py.)"""
    case = CORPUS / server / "strings_charsets--row"
    with serving(sorted(case.glob("binlog.0*[0-9]")), tmp_path, password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        with conn.cursor() as cur:
            cur.execute("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY, CHARACTER_SET_NAME "
                        "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'str' AND TABLE_NAME = 's' "
                        "ORDER BY ORDINAL_POSITION")
            rows = cur.fetchall()
            int_type = "int" if server.startswith("mysql") else "int(11)"  # MariaDB lists display widths
            assert rows[:3] == (("id", int_type, "NO", "PRI", None), ("c_u4", "char(10)", "YES", "", "utf8mb4"),
                                ("v_u4", "varchar(100)", "YES", "", "utf8mb4"))
            assert ("vb", "varbinary(300)", "YES", "", None) in rows
            cur.execute("SHOW FULL COLUMNS FROM s FROM str LIKE 'v_u3'")
            collation = "utf8mb3_general_ci" if server.startswith("mysql") else "utf8mb3_uca1400_ai_ci"
            assert cur.fetchall()[0][:4] == ("v_u3", "varchar(300)", collation, "YES")
            cur.execute("SHOW CREATE TABLE str.s")
            assert cur.fetchone()[1].startswith("CREATE TABLE str.s (id INT PRIMARY KEY,")
            with pytest.raises(pymysql.err.ProgrammingError, match="1146"):
                cur.execute("SHOW COLUMNS FROM str.missing")
            with pytest.raises(pymysql.err.OperationalError, match="1046"):
                cur.execute("SHOW COLUMNS FROM s")
            cur.execute("USE str")
            cur.execute("SHOW COLUMNS FROM s LIKE 'c_big'")
            assert cur.fetchall() == (("c_big", "char(255)", "YES", "", None, ""),)
        conn.close()


def _gtid_dump(c: RawClient, gset: bytes, file: str = "") -> list[bytes]:
    c.seq = 0
    c.send(b"\x1e" + struct.pack("<HII", 0x04 | 0x01, 5, len(file)) + file.encode()
           + struct.pack("<QI", 4, len(gset)) + gset)
    payloads: list[bytes] = []
    while not payloads or not (is_eof(payloads[-1]) or payloads[-1][:1] == b"\xff"):
        payloads.append(c.read())
    return payloads


@pytest.mark.parametrize("case,held,first_file,cleared", [
    ("rotation--row", 3, "binlog.000002", False),  # covers binlog.000002's Previous_gtids (1-3), not 000003's
    ("rotation--row", 4, "binlog.000003", False),
    ("json--row", 2, "binlog.000001", True),  # holds the file's first transaction
])
def test_mysql_auto_position_starts_at_the_file_the_client_set_covers(
        tmp_path: Path, case: str, held: int, first_file: str, cleared: bool) -> None:
    """An empty file name: the last file whose Previous_gtids the client's set covers
    (find_first_log_not_in_gtid_set); when the client holds its first transaction, the
    Format_description goes out with `created` zeroed and its log_pos kept (the real 9.7 does so:
    tests/test_primary_vs_capture.py, mysql-9.7 gtid)."""
    path = CORPUS / "mysql-9.7" / case
    sid = next(e.body["sid"] for f in sorted(path.glob("binlog.00000?")) for e in decode_file(f)
               if e.type_code == 33)
    with _serve(tmp_path, case=path) as served:
        c = RawClient(served)
        c.login()
        c.query("SET @master_binlog_checksum = 'CRC32'")
        records = list(decode_stream_bytes(_stream(_gtid_dump(c, _mysql_gtid_set(sid, 1, held + 1)))))
    assert records[0]["body"]["new_log_ident"] == first_file
    fde = records[1]
    assert fde["type"] == "FORMAT_DESCRIPTION_EVENT" and fde["next_position"] == 4 + fde["event_size"]
    if cleared:  # (a server writes created = 0 in every binlog but the first after its start anyway)
        assert fde["body"]["created"] == 0
    sent = [r["body"]["gno"] for r in records if r.get("type") == "GTID_LOG_EVENT"]
    assert sent and min(sent) == held + 1 and records[-1]["packet"] == "eof"


def test_given_certificate_user_and_flavor(tmp_path: Path) -> None:
    """--tls-cert/--tls-key are what TLS clients see; --user names the only account; --flavor
    mariadb makes a MariaDB 10.x-style primary (5.5.5- prefix, mysql_native_password)."""
    import ssl

    from harness.primary.auth import self_signed_certificate
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cert_pem = self_signed_certificate(key)
    (tmp_path / "cert.pem").write_bytes(cert_pem)
    (tmp_path / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption()))
    with serving([CORPUS / "mariadb-10.11/rotation--row"], tmp_path, "--user", "repl", "--tls-cert",
                 str(tmp_path / "cert.pem"), "--tls-key", str(tmp_path / "key.pem"), password="pw") as served:
        ctx = ssl.create_default_context(cadata=cert_pem.decode())  # verifies the chain and 127.0.0.1
        conn = pymysql.connect(host=served.host, port=served.port, user="repl", password="pw", ssl=ctx)
        assert conn.get_server_info().startswith("5.5.5-10.11")
        conn.close()
        with pytest.raises(pymysql.err.OperationalError, match="1045"):
            pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
    with serving([MYSQL_CASE], tmp_path, "--flavor", "mariadb", password="pw") as served:
        conn = pymysql.connect(host=served.host, port=served.port, user="root", password="pw")
        assert conn.get_server_info() == "5.5.5-9.7.4-2"
        conn.close()
        assert "mysql_native_password" in served.stderr()


def test_a_reload_serves_the_rewritten_file_with_the_options_given(tmp_path: Path) -> None:
    """BackgroundPrimary.reload (the stream fuzz's swap of one input for the next) re-reads the
    served file as start-up does: --flavor and --server-id still apply to the new file."""
    import os

    from harness.primary.server import BackgroundPrimary
    from harness.primary.state import ServeOptions
    served = tmp_path / "binlog.000001"
    served.write_bytes((MARIADB_CASE / "binlog.000001").read_bytes())
    with BackgroundPrimary(ServeOptions([str(served)], port=0, quiet=True, flavor="mysql", server_id=77)) as primary:
        (tmp_path / "next").write_bytes((CORPUS / "mariadb-10.5/rotation--row/binlog.000001").read_bytes())
        os.replace(tmp_path / "next", served)
        primary.reload()
        conn = pymysql.connect(host=primary.host, port=primary.port, user="root", password="")
        assert conn.get_server_info().startswith("10.5.")  # the new file's version, no MariaDB 5.5.5- prefix
        with conn.cursor() as cur:
            cur.execute("SELECT @@server_id, @@version_comment")
            assert cur.fetchone() == (77, "binlog-conformance harness serve (MySQL protocol)")
        conn.close()
