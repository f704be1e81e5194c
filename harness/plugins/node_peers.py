"""The Node binlog parsers from npm (harness/peers), as parser plugins.

Each is a stream parser (transport "stream"): it connects to a primary as a replica, so it cannot
read a file; the harness serves each case with `harness serve` and calls parse_stream(source).
The adapter script (harness/peers/adapters/NAME.js) speaks the persistent JSON-lines protocol;
its hello carries the capabilities, and a parse request carries the stream fields of
docs/plugin-contract.md (StreamSource: host, port, user, password, file, start_position,
end_file, end_position). One adapter process per stream: a library that leaves a connection
or a Go child behind cannot carry it into the next case."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from .. import peers
from .base import BaseParser, Capabilities, ParseError, Unsupported
from .protocol import STREAM, StreamSource

HELLO_TIMEOUT = 30.0
STREAM_TIMEOUT = 120.0
NOTHING = Capabilities(frozenset(), {}, every_event=False, partial_events=True)


def _adapter_env() -> dict[str, str]:
    return {**os.environ, "BINLOG_PEERS_MODULES": str(peers.node_modules()), "TZ": "UTC"}


def _run_adapter(peer: peers.Peer, requests: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
    """Start the adapter, send the requests, close stdin; its hello and replies, in order."""
    node = peers.node_binary()
    if node is None:
        raise FileNotFoundError("node")
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([node, str(peer.script)], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=_adapter_env())
    # Split on "\n" only: JSON strings may hold U+2028, U+0085 ..., which str.splitlines splits on.
    lines = [json.loads(ln) for ln in proc.stdout.split("\n") if ln.strip()]
    if proc.returncode != 0 or len(lines) != len(requests) + 1:
        raise RuntimeError(f"{peer.script.name} exited {proc.returncode} after {len(lines)} lines: "
                           f"{proc.stderr.strip()[-500:]}")
    return lines


class NodePeerParser(BaseParser):
    peer_name = ""
    transport = STREAM

    def __init__(self) -> None:
        self.peer = peers.PEERS[self.peer_name]
        self.name = self.peer.name
        pinned = peers.pinned_version(self.peer.package) or "unknown"
        self.version = peers.installed_version(self.peer.package) or f"{pinned} (not installed)"
        self._reason = peers.unavailable_reason(self.peer)
        self.capabilities = NOTHING
        if self._reason is None:
            try:
                hello = _run_adapter(self.peer, [], HELLO_TIMEOUT)[0]
                self.capabilities = Capabilities.from_json(hello.get("capabilities"))
                self._reason = hello.get("unavailable") or None
            except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                self._reason = f"adapter {self.peer.script.name} did not start: {e}"

    def unavailable_reason(self) -> str | None:
        return self._reason

    def parse(self, path: str) -> list[dict[str, Any]]:
        raise Unsupported(f"{self.name} reads from a primary over the replication protocol, not a file")

    def parse_stream(self, source: StreamSource, timeout: float = STREAM_TIMEOUT) -> list[dict[str, Any]]:
        """Events from one stream. A clean client error is a ParseError with the events before it."""
        reply = _run_adapter(self.peer, [{"type": "parse", "id": 1, **source.to_json()}], timeout)[1]
        kind = reply.get("type")
        if kind == "events":
            return reply["events"]
        if kind == "skipped":
            raise Unsupported(str(reply.get("reason", "")))
        if kind == "error":
            raise ParseError(str(reply.get("kind")), str(reply.get("message")), reply.get("offset"),
                             reply.get("events") or [])
        raise RuntimeError(f"unexpected reply from {self.peer.script.name}: {str(reply)[:300]}")


def _plugin(peer_name: str) -> type[NodePeerParser]:
    cls_name = "".join(part.capitalize() for part in peer_name.split("-")) + "Parser"
    return type(cls_name, (NodePeerParser,), {"peer_name": peer_name, "__module__": __name__,
                                              "__doc__": f"The npm package {peers.PEERS[peer_name].package}."})


ZongjiVlaskyParser = _plugin("zongji-vlasky")
ZongjiPowersyncParser = _plugin("zongji-powersync")
ZongjiParser = _plugin("zongji")
GoMysqlJsParser = _plugin("go-mysql-js")
GoMysqlBinlogNodeParser = _plugin("go-mysql-binlog-node")
