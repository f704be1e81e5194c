"""Fuzzing a stream parser (issue 13, item 5): every input is served to it by the harness's own
primary (`harness serve`, harness/primary/server.py's BackgroundPrimary, with the credentials of
harness/stream_serving.py), exactly as the conformance runner serves a case, and what it reports
becomes an Outcome like any file parser's, judged and recorded by the same code (outcome.py,
findings.py).

One primary per parsing process, not per input: it serves one file, and each input is written
over that file (an atomic rename, so a dump still running on the previous input keeps its own
bytes), and the primary reloads its state from it (BackgroundPrimary.reload: the served logs,
server_id and system variables, derived as at start-up, options applied). Starting a primary
costs ~10 ms of key and socket set-up; a reload costs a decode of the GTID and Table_map events
of a <= 16 KB input. A process made by fork starts its own primary (threads do not survive a
fork), which is how the mutate engine's children each get one.

What the primary sends is the expectation's frame: it frames events by event_size alone, as
mysql-server's Binlog_sender does (no checksum, no body decode), sends every whole event and ends
with ERR 1236 ("bogus data in log event", "binlog truncated in the middle of event") at the first
one it cannot frame. A file it refuses to load (bad magic, no Format_description first) is not
served at all: its outcome is the clean rejection `NotServed`, and the parser is not run.

Stream specifics, so that the shared judgement stays right:
- events reported that the primary never sent (more events than it sent, or an event whose
  log_pos and size match no event it sent) are a `differential` finding whatever the mode:
  rows that are not in the served binlog are the worst a CDC parser can deliver;
- `position` is left out of the outcome: a stream client can only derive it as
  log_pos - event_size, both of which are compared anyway, so a mutant that changes log_pos would
  otherwise blame the parser for the coordinates the primary sent;
- the stream ends where the last event the primary will send ends, or, when it ends with ERR
  1236, is open (end_position 0), so a client that only knows blocking mode still stops;
- Outcome.transport is "stream", so every finding's note carries it.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable

from .outcome import Outcome, Parse, oracle_parse, plugin_outcome
from .stream_frames import (
    LOG_EVENT_ARTIFICIAL_F,
    UNREPORTED,
    Served,
    as_streamed,
    flags_of,
    in_file_order,
    phantom,
    reported,
    served_frames,
)

STREAM = "stream"
SERVED_NAME = "binlog.000001"
NOT_SERVED = "NotServed"
DIR_PREFIX = "binlog-fuzz-stream-"


def _sweep(root: Path) -> None:
    """Remove the served-file directories of processes that are gone: a forked mutate child ends
    with os._exit, which runs no clean-up."""
    for d in root.glob(f"{DIR_PREFIX}*-*"):
        pid = d.name[len(DIR_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            shutil.rmtree(d, ignore_errors=True)


class MutantPrimary:
    """The primary of one process, serving the input under test as SERVED_NAME."""

    def __init__(self) -> None:
        tmp_root = Path("/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir())
        _sweep(tmp_root)
        self.dir = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{os.getpid()}-", dir=tmp_root))
        self.path = self.dir / SERVED_NAME
        self.primary: Any = None
        self.pid = 0
        self.lock = threading.Lock()

    def serve(self, data: bytes, end_position: int) -> Any:
        """The StreamSource for `data`, or None when the primary will not load it."""
        from harness.plugins.protocol import StreamSource
        from harness.primary.served import ServeError
        from harness.stream_serving import PASSWORD, USER
        with self.lock:
            tmp = self.dir / f".{SERVED_NAME}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, self.path)
            try:
                self._load()
            except (ServeError, OSError, ValueError):
                return None
            return StreamSource(self.primary.host, self.primary.port, USER, PASSWORD, SERVED_NAME, 4,
                                SERVED_NAME, end_position)

    def _load(self) -> None:
        from harness.primary.server import BackgroundPrimary
        from harness.primary.state import ServeOptions
        from harness.stream_serving import PASSWORD, USER
        if self.primary is None or self.pid != os.getpid():
            # idle 5 s: a stuck client is cut, as conformance does (stream_serving.served)
            opts = ServeOptions([str(self.path)], port=0, user=USER, password=PASSWORD, quiet=True,
                                idle_timeout=5.0, write_timeout=30.0)
            self.primary, self.pid = BackgroundPrimary(opts), os.getpid()
            return
        self.primary.reload()

    def close(self) -> None:
        if self.primary is not None and self.pid == os.getpid():
            self.primary.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _reports(caps: Any) -> Callable[[int], bool]:
    """Whether the parser reports events of a type code (its capabilities)."""
    from oracle.event_types import EventType

    def reports(code: int) -> bool:
        try:
            return caps.reports_type(EventType(code).name)
        except ValueError:  # a code no server defines: reported, if at all, as unknown
            return True
    return reports


def _judged(data: bytes, served: Served, out: Outcome, caps: Any) -> Outcome:
    out.events = as_streamed(out.events)
    out.transport = STREAM
    why = phantom(served, out.events)
    if why is not None:
        out.disagreement, out.disagreement_key = f"reported an event the primary never sent: {why}", \
            "stream:not-sent"
    else:
        out.events = in_file_order(data, served, out.events, out.accepted, _reports(caps))
    return out


def stream_violation(m: Any, seed: Outcome, got: Outcome, data: bytes | None = None,
                     caps: Any = None) -> str | None:
    """outcome.violation, but a MUST_ACCEPT_WITH_CHANGE mutant keeps only "no crash, and the
    events before it as in the seed" where a stream parser cannot show the change:
    - a header change that steers a stream client: log_pos is where it takes an event's position
      and the end of the stream from (a larger one ends the read early: end_position), and an
      event flagged LOG_EVENT_ARTIFICIAL_F is one a sender made up, which clients leave out;
    - the parser does not report the mutated event (an ignorable undefined type skipped, a type
      outside its capabilities), or none of the fields changed (its capabilities' header)."""
    from harness.mutations import Expect

    from .outcome import violation
    sent = data if data is not None else m.data
    frames = served_frames(sent).frames
    i = m.event_index
    steered = "next_position" in m.changed or (
        i is not None and i < len(frames) and flags_of(sent, frames[i]) & LOG_EVENT_ARTIFICIAL_F)
    unseen = i is not None and i < len(got.events) and UNREPORTED in got.events[i]
    if m.expect is Expect.MUST_ACCEPT_WITH_CHANGE and (steered or unseen or not _shows_any(caps, m.changed)):
        m = dataclasses.replace(m, expect=Expect.ANY_CLEAN)
    return violation(m, seed, got, data)


def _shows_any(caps: Any, fields: frozenset[str]) -> bool:
    """Whether a parser with these capabilities reports any of these top-level event fields."""
    if caps is None or not fields:
        return True
    header = {h.split(".")[0] for h in caps.header}
    return any(f in header or (f == "body" and bool(caps.bodies)) for f in fields)


def reference(data: bytes) -> Outcome:
    """The oracle's decode of `data` as a stream parser should report it (--differential)."""
    ref = oracle_parse(data)
    ref.events = as_streamed(ref.events)
    ref.transport = STREAM
    return ref


def serving_parse(run: Callable[[Any], Outcome], caps: Any) -> Parse:
    """A Parse that serves each input and hands the StreamSource to `run`."""
    primary = MutantPrimary()

    def parse(data: bytes) -> Outcome:
        served = served_frames(data)
        source = primary.serve(data, served.end_position)
        if source is None:
            return Outcome([], NOT_SERVED, 0, transport=STREAM)
        return _judged(data, served, run(source), caps)
    parse.reference = reference  # type: ignore[attr-defined]
    parse.compared = reported  # type: ignore[attr-defined]
    parse.violation = functools.partial(stream_violation, caps=caps)  # type: ignore[attr-defined]
    parse.primary = primary  # type: ignore[attr-defined]
    return parse


def plugin_parse(plugin: Any) -> Parse:
    """A Parse over an in-process stream plugin (parse_stream(source)): its process stays."""
    return serving_parse(lambda source: plugin_outcome(plugin.parse_stream, source), plugin.capabilities)
