"""Client for a one-shot testee: `CMD FILE` prints canonical JSON lines; exit 1 is a clean
rejection (last stderr line says why); any other failure is a crash. `CMD --hello` may print
the hello message (capabilities); without it, every field is compared. A stream one-shot
(`--parser-stream CMD`) gets the StreamSource as flags instead of FILE."""
from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time
from typing import Any, Sequence

from ..isolation import CRASH_LOG_BYTES, Limits, OutputTooLarge, Process, describe_exit
from .base import FULL
from .protocol import (CRASH, ERROR, EVENTS, FILE, STREAM, TIMEOUT, UNAVAILABLE, ErrorInfo, Hello, Reply,
                       StreamSource, crash_detail)

_ERROR_LINE = re.compile(r"(?:error:\s*)?(?P<kind>\w+) at offset (?P<offset>\d+): (?P<message>.*)")
REJECTED = 1


def parse_error_line(stderr: str) -> ErrorInfo:
    """The last stderr line, read as `error: <Kind> at offset <N>: <message>` when it has that shape."""
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    m = _ERROR_LINE.fullmatch(last.strip())
    if m:
        return ErrorInfo(m["kind"], int(m["offset"]), m["message"])
    return ErrorInfo("Rejected", None, last)


def parse_event_lines(out: bytes) -> list[dict[str, Any]]:
    events = []
    for n, line in enumerate(out.splitlines(), 1):
        if not line.strip():
            continue
        event = json.loads(line)
        if not isinstance(event, dict):
            raise ValueError(f"line {n} is not a JSON object")
        events.append(event)
    return events


def _delivered(out: bytes) -> list[dict[str, Any]]:
    """The events a one-shot testee printed before it died or ran out of time: its complete
    lines, up to the first that is not an event (a line cut by the kill, or garbage)."""
    events = []
    for line in out.splitlines():
        try:
            event = json.loads(line) if line.strip() else None
        except ValueError:
            break
        if isinstance(event, dict):
            events.append(event)
        elif event is not None:
            break
    return events


class OneShotTestee:
    def __init__(self, argv: Sequence[str], limits: Limits, env: dict[str, str] | None = None,
                 transport: str = FILE) -> None:
        self.argv = list(argv)
        self.transport = transport
        self.limits = Limits(limits.timeout, limits.memory_mb,
                             limits.cpu_seconds or math.ceil(limits.timeout) + 1)
        self.env = env
        self._hello: Hello | None = None

    def hello(self) -> Hello:
        if self._hello is None:
            # The command line says how it reads (--parser-cmd / --parser-stream), whatever it prints.
            self._hello = dataclasses.replace(self._ask_hello(), transport=self.transport)
        return self._hello

    def start_failure(self) -> Reply | None:
        return None

    def _ask_hello(self) -> Hello:
        # Without a hello, name it after the script (`python3 x.py` -> x.py), not the interpreter.
        fallback = Hello(os.path.basename(self.argv[-1]), "unknown", FULL)
        try:
            proc = Process([*self.argv, "--hello"], self.limits, stdin=False, env=self.env)
        except OSError as e:
            return Hello(fallback.name, "unknown", FULL, f"cannot start {self.argv[0]}: {e.strerror}")
        try:
            deadline = time.monotonic() + self.limits.timeout
            out = proc.read_all(deadline)
            if out is None or proc.wait(deadline) != 0:
                return fallback
            return Hello.from_json(json.loads(out.splitlines()[0]))
        except (ValueError, IndexError, AttributeError, OutputTooLarge):
            return fallback
        finally:
            proc.close()

    def parse(self, path: str, stream: StreamSource | None = None) -> Reply:
        if self.hello().unavailable:
            return Reply(UNAVAILABLE, detail=self.hello().unavailable or "")
        if self.transport == STREAM and stream is None:
            return Reply(UNAVAILABLE, detail="a stream command needs a primary to read from")
        args = stream.flags() if stream is not None else [path]
        try:
            proc = Process([*self.argv, *args], self.limits, stdin=False, env=self.env)
        except OSError as e:
            return Reply(UNAVAILABLE, detail=f"cannot start {self.argv[0]}: {e.strerror}")
        try:
            return self._run(proc)
        finally:
            proc.close()

    def _run(self, proc: Process) -> Reply:
        deadline = time.monotonic() + self.limits.timeout
        try:
            out = proc.read_all(deadline)
        except OutputTooLarge as e:
            return Reply(CRASH, detail=str(e))
        rc = proc.wait(deadline) if out is not None else None
        if rc is None:
            return Reply(TIMEOUT, _delivered(out if out is not None else proc.partial_output()),
                         detail=f"no exit within {self.limits.timeout:g}s")
        if rc not in (0, REJECTED):
            message, log = crash_detail("died", describe_exit(rc), proc.stderr_tail(CRASH_LOG_BYTES))
            return Reply(CRASH, _delivered(out or b""), detail=message, log=log)
        try:
            events = parse_event_lines(out or b"")
        except ValueError as e:
            return Reply(CRASH, detail=f"invalid output: {e}")
        if rc == REJECTED:
            return Reply(ERROR, events, parse_error_line(proc.stderr_tail()))
        return Reply(EVENTS, events)

    def close(self) -> None:
        pass
