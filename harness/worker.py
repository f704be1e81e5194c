"""`python -m harness.worker PLUGIN`: serve an in-process Python plugin over the persistent
subprocess contract, so Python plugins run isolated exactly like parsers in other languages.

An exception other than ParseError/Unsupported is the plugin crashing: the traceback goes to
stderr, a `crashed` reply carries the events the plugin had delivered (`base.delivering`), and
the worker exits with status 70, which the harness classifies as a crash."""
from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, TextIO

from .plugins.base import FULL, ParseError, Unsupported, delivered_so_far, delivering
from .plugins.protocol import CRASHED, ERROR, EVENTS, FILE, POSITION, SKIPPED, Hello, StreamSource, dumps
from .plugins.registry import load

CRASH_STATUS = 70


def _protocol_stream() -> TextIO:
    """Keep the real stdout for protocol messages; anything the plugin prints goes to stderr."""
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "w", encoding="utf-8")


def _reply(request_id: Any, plugin: Any, path: str, stream: dict[str, Any] | None = None) -> dict[str, Any]:
    try:
        events = plugin.parse_stream(StreamSource.from_json(stream)) if stream else plugin.parse(path)
    except ParseError as e:
        return {"type": ERROR, "id": request_id, "kind": e.kind, "offset": e.offset,
                "message": e.message, "events": e.events}
    except Unsupported as e:
        return {"type": SKIPPED, "id": request_id, "reason": str(e)}
    return {"type": EVENTS, "id": request_id, "events": events}


def serve(spec: str) -> int:
    out = _protocol_stream()
    try:
        plugin = load(spec)
        hello = Hello(plugin.name, plugin.version, plugin.capabilities, plugin.unavailable_reason(),
                      getattr(plugin, "transport", FILE), tuple(getattr(plugin, "modes", (POSITION,))),
                      dict(getattr(plugin, "modes_unsupported", {})))
    except Exception as e:  # a plugin that cannot load is unavailable, and says why
        plugin = None
        hello = Hello(spec, "unknown", FULL, f"cannot load plugin {spec}: {type(e).__name__}: {e}")
    out.write(dumps(hello.to_json()) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        delivering([])
        try:
            line = dumps(_reply(request.get("id"), plugin, str(request["path"]), request.get("stream")))
            line.encode("utf-8")
        except Exception as e:  # includes events that are not JSON-serialisable or not UTF-8
            traceback.print_exc()
            _report_crash(out, request.get("id"), e)
            return CRASH_STATUS
        out.write(line + "\n")
        out.flush()
    return 0


def _report_crash(out: TextIO, request_id: Any, error: Exception) -> None:
    """The `crashed` reply, with the events delivered before the crash; if those cannot be
    written (the crash was an event that is not JSON), none: the exit still says crash."""
    try:
        line = dumps({"type": CRASHED, "id": request_id, "message": f"{type(error).__name__}: {error}",
                      "events": delivered_so_far()})
        line.encode("utf-8")
    except Exception:
        return
    out.write(line + "\n")
    out.flush()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m harness.worker PLUGIN")
    sys.exit(serve(sys.argv[1]))
