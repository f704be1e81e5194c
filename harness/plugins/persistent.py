"""Client for a persistent testee: one long-lived process speaking JSON lines on stdin/stdout.
A testee that dies or stops answering is killed and restarted for the next file."""
from __future__ import annotations

import json
import time
from typing import Sequence

from ..isolation import CRASH_LOG_BYTES, Limits, OutputTooLarge, Process, describe_exit
from .protocol import (CRASH, CRASHED, TIMEOUT, UNAVAILABLE, Hello, Reply, StreamSource, crash_detail,
                       parse_request, reply_from_message)

STARTUP_TIMEOUT = 60.0
# A testee that sent a `crashed` reply is exiting; one that ran out of memory may take a while
# to give it back (exit status and stderr make the crash's message, so they are worth the wait).
CRASHED_EXIT_GRACE = 15.0


class PersistentTestee:
    def __init__(self, argv: Sequence[str], limits: Limits, env: dict[str, str] | None = None) -> None:
        self.argv = list(argv)
        self.limits = Limits(limits.timeout, limits.memory_mb, 0)  # CPU time accumulates across files
        self.env = env
        self._proc: Process | None = None
        self._hello: Hello | None = None
        self._start_failure: Reply | None = None
        self._next_id = 0

    def _start(self) -> None:
        self._start_failure = None
        try:
            self._proc = Process(self.argv, self.limits, stdin=True, env=self.env)
        except OSError as e:
            self._start_failure = Reply(UNAVAILABLE, detail=f"cannot start {self.argv[0]}: {e.strerror}")
            return
        line = self._proc.read_line(time.monotonic() + max(STARTUP_TIMEOUT, self.limits.timeout))
        failure = None
        if line is None:
            failure = Reply(TIMEOUT, detail="no hello message before the deadline")
        else:
            try:
                self._hello = Hello.from_json(json.loads(line))
            except (ValueError, AttributeError) as e:
                failure = self._died(f"bad hello ({e})")
        if failure is not None:
            self._start_failure = failure
            self._stop()

    def hello(self) -> Hello | None:
        if self._hello is None and self._start_failure is None:
            self._start()
        return self._hello

    def start_failure(self) -> Reply | None:
        return self._start_failure

    def parse(self, path: str, stream: StreamSource | None = None) -> Reply:
        """One request; a stream testee also gets the `stream` fields (docs/plugin-contract.md)."""
        if self._proc is None:
            self._start()
            if self._start_failure is not None:
                return self._start_failure
        assert self._proc is not None and self._hello is not None
        if self._hello.unavailable:
            return Reply(UNAVAILABLE, detail=self._hello.unavailable)
        self._next_id += 1
        if not self._proc.send(parse_request(self._next_id, path, stream)):
            return self._fail(self._died("stdin closed"))
        try:
            line = self._proc.read_line(time.monotonic() + self.limits.timeout)
        except OutputTooLarge as e:
            return self._fail(Reply(CRASH, detail=str(e)))
        if line is None:
            return self._fail(Reply(TIMEOUT, detail=f"no reply within {self.limits.timeout:g}s"))
        if not line:
            return self._fail(self._died("died"))
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("reply is not a JSON object")
        except ValueError as e:
            return self._fail(Reply(CRASH, detail=f"invalid reply line: {e}"))
        reply = reply_from_message(msg, self._next_id)
        if msg.get("type") == CRASHED and reply.status == CRASH:
            return self._fail(self._crashed(reply))
        return self._fail(reply) if reply.status == CRASH else reply

    def _crashed(self, reply: Reply) -> Reply:
        """A testee that reported its crash exits next: the message is the one its death gives
        (exit status, last stderr line), as for a testee that died without a word, so a crash
        reads the same whichever way the testee ended; the events it delivered are kept."""
        assert self._proc is not None
        exited = self._proc.wait(time.monotonic() + CRASHED_EXIT_GRACE) is not None
        died = self._died("died" if exited else f"reported a crash, no exit within {CRASHED_EXIT_GRACE:g}s")
        return Reply(CRASH, reply.events, detail=died.detail, log=died.log or reply.detail)

    def _died(self, what: str) -> Reply:
        assert self._proc is not None
        rc = self._proc.wait(time.monotonic() + 2)
        message, log = crash_detail(what, describe_exit(rc), self._proc.stderr_tail(CRASH_LOG_BYTES))
        return Reply(CRASH, detail=message, log=log)

    def kill(self) -> None:
        """Stop the testee now: its caller gave up on the reply (a fuzz engine's per-input timer
        fired), so the next request must not read this one's late reply. The next parse
        starts a fresh process."""
        self._stop()

    def _fail(self, reply: Reply) -> Reply:
        self._stop()
        return reply

    def _stop(self) -> None:
        if self._proc is not None:
            self._proc.close()
            self._proc = None

    def close(self) -> None:
        """End of run: close stdin so the testee can exit by itself, then make sure it is gone."""
        if self._proc is not None:
            try:
                if self._proc.proc.stdin is not None:
                    self._proc.proc.stdin.close()
            except OSError:
                pass
            self._proc.wait(time.monotonic() + 5)
            self._stop()
