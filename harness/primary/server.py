"""`python -m harness serve PATH...`: listen, accept, one thread per connection, stop cleanly on
SIGINT/SIGTERM (exit 0). Threads because each session is a short blocking conversation followed
by a file-to-socket copy; every blocking call has a timeout, so no client can hold a thread."""
from __future__ import annotations

import argparse
import ipaddress
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from oracle.wire.packets import ErrPacket, encode_packets

from ..wire_faults.catalogue import BY_NAME as FAULTS
from .auth import make_keys
from .conn import PacketIO
from .served import ServeError
from .session import Session
from .state import LOOPBACK_HOSTS, ServeOptions, ServerState, served_logs

ER_CON_COUNT_ERROR = 1040
EXIT_OK, EXIT_USAGE = 0, 2


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bind_host(host: str) -> str:
    return "127.0.0.1" if host == "localhost" else host


class Primary:
    def __init__(self, state: ServerState, listener: socket.socket) -> None:
        self.state, self.listener = state, listener
        self.threads: set[threading.Thread] = set()
        self.next_id = 0

    def serve_forever(self) -> None:
        self.listener.settimeout(0.2)
        while not self.state.stop.is_set():
            try:
                sock, addr = self.listener.accept()
            except (socket.timeout, TimeoutError):
                continue
            except OSError:
                if self.state.stop.is_set():
                    break
                raise
            self.next_id += 1
            self.threads = {t for t in self.threads if t.is_alive()}
            if len(self.threads) >= self.state.options.max_connections:
                self._refuse(sock, addr)
                continue
            t = threading.Thread(target=self._handle, args=(sock, addr, self.next_id), daemon=True)
            self.threads.add(t)
            t.start()
        self.listener.close()
        deadline = time.monotonic() + 3  # dumps stop at their next event; idle sessions are daemons
        for t in list(self.threads):
            t.join(timeout=max(0.0, deadline - time.monotonic()))

    def _refuse(self, sock: socket.socket, addr: tuple) -> None:
        self.state.log(f"conn {self.next_id} from {addr[0]}:{addr[1]}: refused, too many connections")
        try:
            sock.settimeout(1)
            sock.sendall(encode_packets(ErrPacket(ER_CON_COUNT_ERROR, "Too many connections", "08004").encode(), 0)[0])
        except OSError:
            pass
        sock.close()

    def _handle(self, sock: socket.socket, addr: tuple, conn_id: int) -> None:
        opts = self.state.options
        self.state.log(f"conn {conn_id} from {addr[0]}:{addr[1]}")
        # As the real server does (vio_fastsend): a reply goes out at once, not after Nagle's wait
        # for the client's delayed ACK (a short stream took 138 ms instead of 42 ms).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        io = PacketIO(sock, opts.max_payload, opts.connect_timeout, opts.write_timeout)
        try:
            Session(io, self.state, conn_id, f"{addr[0]}:{addr[1]}").run()
        except Exception as e:  # a bug must not take the server down, nor reach the client as a traceback
            self.state.log(f"conn {conn_id}: internal error: {type(e).__name__}: {e}")
            io.close()
        self.state.log(f"conn {conn_id}: disconnected")


def prepare(opts: ServeOptions) -> tuple[ServerState, socket.socket]:
    """Everything before serving: load the logs, make the keys, bind. Raises ServeError (the
    PATHs), OSError (the address) or ValueError (the TLS files)."""
    logs = served_logs(opts)
    keys = make_keys(opts.tls_cert, opts.tls_key)
    listener = socket.create_server((_bind_host(opts.host), opts.port), backlog=128)
    return ServerState(opts, logs, keys, listener.getsockname()[1]), listener


class BackgroundPrimary:
    """A primary serving in a thread of the calling process (the conformance runner serves each
    stream case so: no interpreter start per case). `close()` stops accepting at once; sessions
    still open end at their next event or idle check, on their own daemon threads."""

    def __init__(self, opts: ServeOptions) -> None:
        self.state, listener = prepare(opts)
        self.host, self.port = listener.getsockname()[:2]
        self._thread = threading.Thread(target=Primary(self.state, listener).serve_forever,
                                        name=f"primary:{self.port}", daemon=True)
        self._thread.start()

    def reload(self) -> None:
        """Serve what the PATHs hold now (ServerState.reload). Raises ServeError."""
        self.state.reload()

    def close(self) -> None:
        self.state.stop.set()

    def __enter__(self) -> "BackgroundPrimary":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(opts: ServeOptions) -> int:
    if not _is_loopback(opts.host) and not opts.password:
        print(f"error: --host {opts.host} is not a loopback address: give --password", file=sys.stderr)
        return EXIT_USAGE
    try:
        state, listener = prepare(opts)
    except (ServeError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    logs, port = state.logs, listener.getsockname()[1]

    def stop(signum: int, frame: object) -> None:
        state.stop.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print(f"listening on {_bind_host(opts.host)}:{port}", flush=True)
    state.log(f"serving {len(logs.files)} file(s) as {logs.flavor} {logs.format.server_version}, "
              f"server_id {state.server_id}")
    for warning in logs.warnings:
        state.log(f"warning: {warning}")
    Primary(state, listener).serve_forever()
    state.log("stopped")
    return EXIT_OK


def add_serve_command(sub: argparse._SubParsersAction) -> None:
    d = ServeOptions([])
    s = sub.add_parser("serve", help="serve binlogs over the replication protocol (COM_BINLOG_DUMP)")
    s.add_argument("paths", nargs="+", metavar="PATH", help="binlog files, directories of binlogs, corpus cases")
    s.add_argument("--host", default=d.host, help="address to bind (default 127.0.0.1; others need --password)")
    s.add_argument("--port", type=int, default=d.port, help="port (0: pick a free one; default 3306)")
    s.add_argument("--user", default=d.user, help="the account's user name (default root)")
    s.add_argument("--password", default=d.password, help="the account's password (default empty)")
    s.add_argument("--server-id", type=int, default=None, help="default: the served Format_description's")
    s.add_argument("--flavor", choices=("auto", "mysql", "mariadb"), default="auto",
                   help="behave as MySQL or MariaDB (default: what the served Format_description names)")
    s.add_argument("--tls-cert", metavar="FILE", help="PEM certificate (default: self-signed at start-up)")
    s.add_argument("--tls-key", metavar="FILE", help="PEM private key for --tls-cert")
    s.add_argument("--idle-timeout", type=float, default=d.idle_timeout, help="seconds a client may idle")
    s.add_argument("--write-timeout", type=float, default=d.write_timeout,
                   help="seconds a client may stop reading")
    s.add_argument("--schema-pacing", type=float, default=d.schema_pacing, metavar="S",
                   help="seconds a dump waits, at a table's next definition (after an ALTER), for the "
                        "client's lookup of the one before (default 0: no waiting; docs/primary.md)")
    s.add_argument("--wire-fault", metavar="F", choices=sorted(FAULTS),
                   help="serve with this fault of python -m harness faults (its first dump only), to "
                        "show a library alone against it; one of: " + ", ".join(sorted(FAULTS)))
    s.add_argument("--quiet", action="store_true", help="no per-connection lines on stderr")
    s.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if bool(args.tls_cert) != bool(args.tls_key):
        print("error: --tls-cert and --tls-key go together", file=sys.stderr)
        return EXIT_USAGE
    opts = ServeOptions(args.paths, args.host, args.port, args.user, args.password, args.server_id,
                        args.flavor, args.tls_cert, args.tls_key, args.quiet,
                        idle_timeout=args.idle_timeout, write_timeout=args.write_timeout,
                        schema_pacing=args.schema_pacing)
    if not args.wire_fault:
        return serve(opts)
    from ..wire_faults.serving import describe, with_wire_fault  # the faults build on the primary
    with tempfile.TemporaryDirectory(prefix="wire-fault-") as work:
        try:
            opts = with_wire_fault(opts, args.wire_fault, Path(work))
        except ServeError as e:
            print(f"error: {e}", file=sys.stderr)
            return EXIT_USAGE
        print(describe(args.wire_fault), file=sys.stderr, flush=True)
        return serve(opts)
