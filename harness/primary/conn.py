"""One client connection's packet I/O: sequence ids, 16 MB split and reassembly (oracle.wire), TLS
upgrade, timeouts, and a write buffer so that a dump of small events is not a syscall per event.
Memory is bounded: a read holds at most max_payload bytes (checked on each header, before its
bytes are read); a write holds about FLUSH_AT bytes, whatever the size of the event."""
from __future__ import annotations

import select
import socket
import ssl
from typing import Callable

from oracle.wire.errors import PacketTooLarge
from oracle.wire.packets import HEADER_LEN, MAX_PACKET, Packet, chunk_lengths, encode_packets, packet_header

FLUSH_AT = 1 << 20


class ClientGone(Exception):
    """The client closed the connection, or stopped reading or sending for too long."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class PacketIO:
    def __init__(self, sock: socket.socket, max_payload: int, read_timeout: float, write_timeout: float) -> None:
        self.sock: socket.socket | ssl.SSLSocket = sock
        self.max_payload = max_payload
        self.read_timeout = read_timeout
        self.write_timeout = write_timeout
        self.seq = 0
        self.received = 0  # bytes read so far, for error offsets
        self._timeout: float | None = None
        self._out = bytearray()
        self.tls = False

    # -- reading --------------------------------------------------------------------------------
    def read(self, timeout: float | None = None) -> Packet:
        """The next logical packet; sets the sequence id for the reply. Reads exactly the bytes
        of the packet (never past it: after an SSL request the TLS handshake follows at once)."""
        self.flush()
        self._set_timeout(self.read_timeout if timeout is None else timeout)
        parts: list[bytes] = []
        size = count = 0
        first_seq = None
        while True:
            header = self._recv_exact(HEADER_LEN, size)
            length = int.from_bytes(header[:3], "little")
            if size + length > self.max_payload:
                raise PacketTooLarge(self.received - HEADER_LEN, f"payload of at least {size + length} bytes "
                                     f"exceeds max_allowed_packet ({self.max_payload})")
            first_seq = header[3] if first_seq is None else first_seq
            parts.append(self._recv_exact(length, size + HEADER_LEN))
            size += length
            count += 1
            if length < MAX_PACKET:
                break
        self.seq = (first_seq + count) & 0xFF
        return Packet(self.received, first_seq, b"".join(parts), count)

    def _recv_exact(self, n: int, pending: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            try:
                data = self.sock.recv(min(n - len(buf), 1 << 20))
            except (socket.timeout, TimeoutError) as e:
                raise ClientGone("timed out waiting for the client" +
                                 (" (half-sent packet)" if pending or buf else ""), timed_out=True) from e
            except (OSError, ssl.SSLError) as e:
                raise ClientGone(f"read failed: {e}") from e
            if not data:
                raise ClientGone("the client closed the connection" +
                                 (" in the middle of a packet" if pending or buf else ""))
            buf += data
            self.received += len(data)
        return bytes(buf)

    def start_tls(self, context: ssl.SSLContext) -> None:
        self._set_timeout(self.read_timeout)
        try:
            self.sock = context.wrap_socket(self.sock, server_side=True)
        except (OSError, ssl.SSLError) as e:
            raise ClientGone(f"TLS handshake failed: {e}") from e
        self.tls = True

    # -- writing --------------------------------------------------------------------------------
    def write(self, payload: bytes) -> None:
        data, self.seq = encode_packets(payload, self.seq)
        self._out += data
        if len(self._out) >= FLUSH_AT:
            self.flush()

    def write_streamed(self, total: int, head: bytes, read: Callable[[int], bytes]) -> None:
        """A logical payload of `total` bytes: `head`, then what read(n) returns, packet by packet
        and, within a packet, FLUSH_AT bytes at a time: an event of any size passes through with
        about FLUSH_AT bytes of it in memory."""
        pending = head
        for n in chunk_lengths(total):
            self._out += packet_header(n, self.seq)
            self.seq = (self.seq + 1) & 0xFF
            take, pending = pending[:n], pending[n:]
            self._out += take
            left = n - len(take)
            while left:
                piece = read(min(left, FLUSH_AT))
                if not piece:
                    raise EOFError("the binlog ended inside an event")
                self._out += piece
                left -= len(piece)
                if len(self._out) >= FLUSH_AT:
                    self.flush()
            if len(self._out) >= FLUSH_AT:
                self.flush()

    def _set_timeout(self, seconds: float) -> None:
        if seconds != self._timeout:  # a syscall each time: not once per flush of a dump
            self.sock.settimeout(seconds)
            self._timeout = seconds

    def flush(self) -> None:
        if not self._out:
            return
        self._set_timeout(self.write_timeout)
        # a new buffer, not clear(): a failed TLS sendall leaves a view of the old one alive in
        # its traceback, and a bytearray with a view cannot be resized (BufferError)
        out, self._out = self._out, bytearray()
        try:
            self.sock.sendall(out)
        except (socket.timeout, TimeoutError) as e:
            raise ClientGone("the client stopped reading (write timed out)", timed_out=True) from e
        except (OSError, ssl.SSLError) as e:
            raise ClientGone(f"write failed: {e}") from e

    def client_left(self, timeout: float) -> bool:
        """Wait up to timeout; True when the client closed (or sent something: a dump client
        does not talk, so anything it sends ends the dump, as COM_QUIT would)."""
        self.flush()
        if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
            return True
        try:
            readable, _, _ = select.select([self.sock], [], [], timeout)
        except (OSError, ValueError):
            return True
        return bool(readable)

    def close(self) -> None:
        try:
            self.flush()
        except ClientGone:
            pass
        try:
            self.sock.close()
        except OSError:
            pass
