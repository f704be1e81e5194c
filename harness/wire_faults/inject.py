"""The wire part of a fault: a stand-in for the dump's PacketIO (harness/primary/conn.py) that
sends the dump's payloads as the fault says. The primary uses it only when its options carry an
injector (ServeOptions.wire_fault), so normal serving runs the plain PacketIO and pays nothing.

Only the first dump of a primary gets the fault: a client that reconnects after a cut is served
as it would be by a healthy server, which is what lets a resuming client show it loses nothing."""
from __future__ import annotations

import select
import socket
import threading
import time
from typing import Callable

from oracle.checksum import CHECKSUM_LEN, ChecksumAlg
from oracle.event_types import EventType as T
from oracle.header import V4_HEADER, V4_HEADER_LEN
from oracle.wire.packets import HEADER_LEN, MAX_PACKET, encode_packets

from ..primary.conn import FLUSH_AT, ClientGone, PacketIO
from ..primary.dump import DumpError, artificial_event, checksum_of_fde, heartbeat, rotate_body
from .catalogue import WireAction

ROWS_TYPES = frozenset(t for t in T if "ROWS" in t.name and t is not T.ROWS_QUERY_LOG_EVENT)
MISSING_FILE = "binlog.999999"
NEXT_LOG_ERROR = "could not find next log"


def _is_event(payload: bytes) -> bool:
    """An event packet (0x00 + event), not the EOF or ERR that ends a dump."""
    return len(payload) > V4_HEADER_LEN and payload[0] == 0


# When the action fires, given the event and how often it has fired so far.
TRIGGERS: dict[str, Callable[[bytes, int], bool]] = {
    "first_rows": lambda event, fired: not fired and event[4] in ROWS_TYPES,
    "first_big": lambda event, fired: not fired and len(event) + 1 >= MAX_PACKET,
    "every_event": lambda event, fired: True,
}


class FaultyIO:
    """PacketIO for one dump with a fault. Payloads are held whole (a 17 MB event is 17 MB
    here: the fault runs serve at most a few such events, one connection at a time)."""

    def __init__(self, io: PacketIO, action: WireAction, file_name: str, record: Callable[[str], None],
                 added: Callable[[tuple[int, int]], None], replica: tuple[int, str] = (0, ""),
                 login: tuple[str, str] = ("root", "")) -> None:
        self.io, self.action, self.file_name, self.record, self.added = io, action, file_name, record, added
        self.replica = replica  # the client's identity as the primary matches replicas: server_id, UUID
        self.login = login  # the primary's account
        self.crc = False
        self.server_id = 0  # the served Format_description's, for the events made here
        self.last_log_pos = 4
        self.fired = 0
        self.format_sent = False  # the served Format_description has gone out
        self.heartbeats_sent = 0

    def __getattr__(self, name: str) -> object:  # flush, client_left, read, close ...
        return getattr(self.io, name)

    def write(self, payload: bytes) -> None:
        self._payload(bytes(payload))

    def write_streamed(self, total: int, head: bytes, read: Callable[[int], bytes]) -> None:
        buf = bytearray(head)
        while len(buf) < total:
            piece = read(min(total - len(buf), FLUSH_AT))
            if not piece:
                raise EOFError("the binlog ended inside an event")
            buf += piece
        self._payload(bytes(buf))

    def _payload(self, payload: bytes) -> None:
        if not _is_event(payload):
            self.send(payload)
            return
        event = payload[1:]
        _timestamp, type_code, server_id, _size, log_pos, _flags = V4_HEADER.unpack_from(event)
        if type_code == T.FORMAT_DESCRIPTION_EVENT:
            self.crc = checksum_of_fde(event) == ChecksumAlg.CRC32
            self.server_id = server_id
            self.format_sent = True
        if TRIGGERS[self.action.at](event, self.fired):
            self.fired += 1
            ACTIONS[self.action.kind](self, payload)
        else:
            self.send(payload)
        self.last_log_pos = log_pos or self.last_log_pos

    # -- what actions use -----------------------------------------------------------------------
    def send(self, payload: bytes) -> None:
        self.io.write(payload)

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are, after what is buffered."""
        self.io.flush()
        try:
            self.io.sock.sendall(data)
        except OSError as e:
            raise ClientGone(f"write failed: {e}") from e

    def encoded(self, payload: bytes, seq_step: int = 0) -> bytes:
        data, self.io.seq = encode_packets(payload, (self.io.seq + seq_step) & 0xFF)
        return data

    def heartbeat(self) -> bytes:
        return b"\0" + heartbeat(self.file_name, self.last_log_pos, self.server_id, self.crc)

    def cut(self, what: str) -> None:
        self.record(what)
        try:
            self.io.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        raise ClientGone(f"wire fault: {what}")


def _type_name(payload: bytes) -> str:
    try:
        return T(payload[5]).name
    except ValueError:
        return str(payload[5])


def _heartbeat_after(io: FaultyIO, payload: bytes) -> None:
    """Not before the Format_description: a server sends a Heartbeat while it waits for the next
    event, which it never does between the dump's artificial Rotate and the Format_description
    (and a Heartbeat's checksum is only known from it)."""
    io.send(payload)
    if not io.format_sent:
        return
    if not io.heartbeats_sent:
        io.record("a Heartbeat after every event from the Format_description on")
    io.send(io.heartbeat())
    io.heartbeats_sent += 1


def _heartbeats_before(io: FaultyIO, payload: bytes) -> None:
    beat = io.heartbeat()
    for _ in range(io.action.count):
        io.send(beat)
    io.record(f"{io.action.count} Heartbeats before {_type_name(payload)}")
    io.send(payload)


def _trickle(io: FaultyIO, payload: bytes) -> None:
    if io.fired == 1:
        io.io.flush()  # the primary's sockets have TCP_NODELAY (server.py): each piece leaves alone
        io.record(f"trickled in {io.action.count}-byte writes, {io.action.delay * 1000:g} ms apart")
    data = io.encoded(payload)
    for i in range(0, len(data), io.action.count):
        io.send_raw(data[i:i + io.action.count])
        time.sleep(io.action.delay)


def _seq_step(io: FaultyIO, payload: bytes) -> None:
    io.record(f"{_type_name(payload)} sent with sequence id {(io.io.seq + io.action.count) & 0xFF} "
              f"instead of {io.io.seq}")
    io.send_raw(io.encoded(payload, io.action.count))


def _err(io: FaultyIO, payload: bytes) -> None:
    io.record(f"ERR 1236 in place of {_type_name(payload)}")
    raise DumpError("binlog truncated in the middle of event; consider out of disk space on source")


def _cut_mid_packet(io: FaultyIO, payload: bytes) -> None:
    data = io.encoded(payload)
    io.send_raw(data[:HEADER_LEN + len(payload) // 2])
    io.cut(f"cut after {len(payload) // 2} of {len(payload)} payload bytes of {_type_name(payload)}")


def _stall_mid_packet(io: FaultyIO, payload: bytes) -> None:
    """Half a packet, then silence on an open connection (a peer gone without a FIN), for up to
    `count` seconds or until the client closes: only a client with a read timeout gets out. What
    the client sends meanwhile (a keep-alive's COM_PING) goes unanswered, as on a hung server: it
    is read and dropped, and does not end the stall."""
    data = io.encoded(payload)
    io.send_raw(data[:HEADER_LEN + len(payload) // 2])
    io.record(f"silent after {len(payload) // 2} of {len(payload)} payload bytes of {_type_name(payload)}")
    deadline = time.monotonic() + io.action.count
    ignored = 0
    while time.monotonic() < deadline:
        sent = _unanswered(io.io.sock, 0.5)
        if sent is None:
            break
        if sent and not ignored:
            io.record(f"the client sent {sent} bytes during the stall: left unanswered")
        ignored += sent
    io.cut("the stall ended")


def _unanswered(sock: socket.socket, timeout: float) -> int | None:
    """Bytes the client sent within timeout, read and dropped; None once it has closed."""
    try:
        readable, _, _ = select.select([sock], [], [], timeout)
        if not readable:
            return 0
        chunk = sock.recv(65536)
    except (OSError, ValueError):
        return None
    return len(chunk) or None


def _cut_after_first_packet(io: FaultyIO, payload: bytes) -> None:
    data = io.encoded(payload)
    io.send_raw(data[:HEADER_LEN + MAX_PACKET])
    io.cut(f"cut after the first packet of {_type_name(payload)} ({len(payload)} payload bytes)")


def _flip_checksum(io: FaultyIO, payload: bytes) -> None:
    if not io.crc:
        raise DumpError("wire fault flipped-checksum needs a CRC32 binlog")
    flipped = payload[:-CHECKSUM_LEN] + bytes(b ^ 0xFF for b in payload[-CHECKSUM_LEN:])
    io.record(f"{_type_name(payload)} with its CRC32 inverted")
    io.send(flipped)


def _rotate_missing(io: FaultyIO, payload: bytes) -> None:
    body = rotate_body(MISSING_FILE, 4)
    size = V4_HEADER_LEN + len(body) + (CHECKSUM_LEN if io.crc else 0)
    io.send(b"\0" + artificial_event(T.ROTATE_EVENT, io.server_id, io.last_log_pos + size, 0, body, io.crc))
    io.added((io.last_log_pos, size))
    io.record(f"Rotate to {MISSING_FILE} in place of {_type_name(payload)}, then ERR 1236")
    raise DumpError(NEXT_LOG_ERROR)


def _slow_reader(io: FaultyIO, payload: bytes) -> None:
    """The client's process stopped while the event is written, so that nothing reads it: the
    write waits the primary's net_write_timeout (`count` seconds, for this dump), then the
    connection is closed as a server's dump thread closes it (no ERR: writing is what failed), and
    only then does the client go on, to find what its buffers hold and the end."""
    from .peer import client_pid, process_name, stopped  # psutil: the servers extra, not the base install
    pid = client_pid(io.io.sock)
    if pid is None:  # nothing recorded: the run shows the fault as never injected
        io.send(payload)
        return
    who = f"{process_name(pid)} (pid {pid})"
    io.io.write_timeout = io.action.count
    with stopped(pid):
        try:
            io.send(payload)
            io.io.flush()
        except ClientGone as e:
            if not e.timed_out:
                raise
            io.cut(f"{who} stopped as {_type_name(payload)} ({len(payload)} payload bytes) was written: nothing "
                   f"read for {io.action.count} s (net_write_timeout), the connection closed, then {who} continued")
    io.record(f"{who} stopped and continued: {_type_name(payload)} was sent within net_write_timeout")


def _second_replica(io: FaultyIO, payload: bytes) -> None:
    """Before the event, a second replica with the client's identity (its server_id, and its
    replica UUID when it sent one) starts a dump of its own (second_replica.py); the primary then
    ends the client's at its next check, after this event, with the ERR a real server sends
    (harness/primary/running_dumps.py)."""
    server_id, uuid = io.replica
    if not server_id and not uuid:  # never matched: nothing recorded, the run shows it never injected
        io.send(payload)
        return
    from . import second_replica  # PyMySQL: the servers extra, not the base install
    host, port = io.io.sock.getsockname()[:2]
    problem = second_replica.start(host, port, io.login, server_id, uuid, io.file_name)
    if problem is not None:
        raise DumpError(f"wire fault second-replica: {problem}")
    who = f"server_id {server_id}" + (f" and the client's replica UUID {uuid}" if uuid else "")
    io.record(f"a second replica with {who} began a dump before {_type_name(payload)}")
    io.send(payload)


ACTIONS: dict[str, Callable[[FaultyIO, bytes], None]] = {
    "heartbeat_after": _heartbeat_after,
    "heartbeats_before": _heartbeats_before,
    "trickle": _trickle,
    "seq_step": _seq_step,
    "err": _err,
    "cut_mid_packet": _cut_mid_packet,
    "cut_after_first_packet": _cut_after_first_packet,
    "stall_mid_packet": _stall_mid_packet,
    "flip_checksum": _flip_checksum,
    "rotate_missing": _rotate_missing,
    "slow_reader": _slow_reader,
    "second_replica": _second_replica,
}


class WireInjector:
    """Given to a primary through ServeOptions.wire_fault. `done` lists what was injected, so a
    verdict can say whether the client was ever given the fault; `added`, the (position, size) of
    events the fault put on the wire (a client that reports them invents nothing)."""

    def __init__(self, action: WireAction, file_name: str, log: Callable[[str], None] | None = None,
                 login: tuple[str, str] = ("root", "")) -> None:
        self.action, self.file_name, self.log = action, file_name, log
        self.login = login  # the primary's account, for what the fault connects itself (second-replica)
        self.dumps = 0
        self.done: list[str] = []
        self.added: list[tuple[int, int]] = []
        self._lock = threading.Lock()

    def _record(self, what: str) -> None:
        self.done.append(what)
        if self.log is not None:
            self.log(f"wire fault: {what}")

    def wrap(self, io: PacketIO, replica: tuple[int, str] = (0, "")) -> PacketIO | FaultyIO:
        """The dump's writer: faulty for the first dump (`replica`: its server_id and replica UUID)."""
        with self._lock:
            self.dumps += 1
            first = self.dumps == 1
        if not first:
            return io
        return FaultyIO(io, self.action, self.file_name, self._record, self.added.append, replica, self.login)
