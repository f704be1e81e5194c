"""Serve one case to a stream testee (issue 13): a replication primary (`harness serve`, in a
thread of the runner, on a free loopback port) serving the case's binlog files under their own
names, and the StreamSource that tells the testee where to connect and where the stream ends.

One primary per case, not per run: every case keeps its own file names (most corpus cases are
`binlog.000001`), its own server version and GTID state, and its own table lookups, exactly as
the server that wrote it would have them. Starting one costs ~10 ms (no interpreter, no new key)."""
from __future__ import annotations

import contextlib
import dataclasses
import secrets
from typing import Any, Iterator

from .corpus import CASE_FILE, Case
from . import stream_modes
from .expectations import Expectation, expectation_for
from .primary.served import ServeError
from .primary.server import BackgroundPrimary
from .primary.state import ServeOptions
from .plugins.protocol import POSITION, StreamSource

USER = "harness"
# One password per run: the primary checks it like any other; nothing outside the run knows it.
# 16 characters: clients that keep the handshake's NUL in the scramble (mysql2 in
# @powersync/mysql-zongji, PyMySQL#890, bun#26195) fail the RSA exchange of
# caching_sha2_password with passwords of 20 or more, a client defect outside binlog parsing.
PASSWORD = secrets.token_hex(8)
# How long a dump to a testee that looks tables up waits, at a table's next definition, for its
# lookup of the one before (harness/primary/client_groups.py). Clients that look a table up in
# every epoch never wait this long; one that skips an epoch costs this much once per ALTER.
SCHEMA_PACING = 3.0


class CannotServe(Exception):
    """The primary cannot serve this case (no Format_description first, not a binlog ...): a
    stream testee cannot be given it, so the case is skipped for that testee, saying why."""


def stream_end(expectation: Expectation) -> int:
    """The end of the stream: where the last event of the file ends (its next_position in file
    coordinates), position + event_size, so that a binlog whose events carry log_pos 0 (relay
    logs, MariaDB 11 transactions) still has an end. 0 (unknown) for a file that must be
    rejected: the testee reads on until the primary's ERR at the bad bytes, or it would stop
    before them and never be asked to reject anything."""
    if expectation.error is not None:
        return 0
    for event in reversed(expectation.events):
        if isinstance(event.get("position"), int) and isinstance(event.get("event_size"), int):
            return event["position"] + event["event_size"]
    return 0


IN_USE = 0x1  # LOG_EVENT_BINLOG_IN_USE_F


def _as_sent(event: dict[str, Any]) -> dict[str, Any]:
    """A Format_description as a server sends it: the in-use flag cleared (mysql-server's
    send_format_description_event; harness/primary/dump.py does the same), so a file that was
    copied while its server was writing it does not blame every stream testee for that."""
    flags = event.get("flags")
    if event.get("type") != "FORMAT_DESCRIPTION_EVENT" or not isinstance(flags, dict):
        return event
    names = [n for n in flags.get("names", []) if n != "LOG_EVENT_BINLOG_IN_USE_F"]
    return {**event, "flags": {**flags, "value": flags["value"] & ~IN_USE, "names": names}}


def stream_expectation(expectation: Expectation) -> Expectation:
    """What a stream testee should report: the file's events as the primary sends them."""
    return dataclasses.replace(expectation, events=[_as_sent(e) for e in expectation.events])


def _served_paths(case: Case) -> list[str]:
    """An annotated case's directory (all its files, and its recorded CREATE TABLE statements
    for the primary's column lookups); a bare binlog alone."""
    if (case.path.parent / CASE_FILE).is_file():
        return [str(case.path.parent)]
    return [str(case.path)]


def not_a_server_binlog(expectation: Expectation) -> str | None:
    """Why no server would send this file as a binlog, or None. A relay log's events carry the
    source server's log_pos, not their place in the file: a stream client can only take event
    positions from log_pos, so streaming it would compare coordinates of two different files."""
    for e in expectation.events:
        np, pos, size = e.get("next_position"), e.get("position"), e.get("event_size")
        if all(isinstance(v, int) for v in (np, pos, size)) and np and np != pos + size:
            return (f"a relay log (event @{pos} has log_pos {np}, not {pos + size}): its positions are "
                    "another server's; no server sends it as a binlog")
    return None


@contextlib.contextmanager
def served(case: Case, end_position: int, wire_fault: Any = None, schema_lookups: bool = False,
           mode: str = POSITION, expectation: Expectation | None = None,
           dump_starts: list[tuple[str, int]] | None = None, end_file: str = "") -> Iterator[StreamSource]:
    """A primary serving the case for the duration of the block, and the testee's StreamSource;
    `wire_fault` (harness/wire_faults/inject.py) breaks the first dump as a catalogued fault.
    `schema_lookups`: the testee names row columns by asking the primary, so a case with a table
    no schema source describes (harness/primary/served.py) cannot be served to it: it would be
    told the table does not exist, which says nothing of the parser. `mode` (with the case's
    `expectation`): how the testee starts, and what the primary does for it (stream_modes.py).
    `dump_starts`, when given, receives where the testee's dumps started, (file, position).
    `end_file`: the file in which `end_position` lies, when the stream reads on past the case's
    first file (the wire fault flush-logs); the case's own file by default."""
    # A client idle for 5 s is stuck (zongji 0.5.1 with binlog_checksum=NONE never dumps): the
    # primary cuts it, and the testee reports the lost connection, instead of waiting 60 s.
    opts = ServeOptions(_served_paths(case), port=0, user=USER, password=PASSWORD, quiet=True,
                        idle_timeout=5.0, write_timeout=30.0, wire_fault=wire_fault,
                        schema_pacing=SCHEMA_PACING if schema_lookups else 0.0)
    try:
        primary = BackgroundPrimary(opts)
        how = stream_modes.ModeServing()
        if mode != POSITION:
            how = stream_modes.serving(mode, case, expectation or expectation_for(case), primary.state.logs)
            primary.state.options.status_position = how.status_position
            primary.state.options.heartbeats_after = how.heartbeats_after
    except (ServeError, OSError, ValueError) as e:
        # named without the corpus root, which differs from one checkout to the next, so that an
        # expected-failure entry written on one machine gates on another
        # (given as it was, or resolved: the primary names files by their resolved path)
        message = str(e)
        for where in (str(case.path.parent.resolve()) + "/", str(case.path.parent) + "/"):
            message = message.replace(where, "")
        raise CannotServe(f"the primary cannot serve {case.path.name}: {message}") from e
    except Exception as e:  # a bug of the primary: reported on the case, never ends the run
        raise CannotServe(f"the primary failed to load {case.path.name}: {type(e).__name__}: {e}") from e
    with primary:
        undescribed = primary.state.logs.undescribed
        if schema_lookups and undescribed:
            raise CannotServe(f"no schema known for {', '.join('.'.join(k) for k in undescribed)} (no case.json "
                              "tables, no CREATE TABLE in the binlog, Table_maps without column names): this "
                              "parser looks tables up, and would be told they do not exist")
        try:
            yield StreamSource(primary.host, primary.port, USER, PASSWORD, case.path.name, 4,
                               end_file or case.path.name, end_position, mode, how.gtid_set, how.heartbeat_period)
        finally:
            if dump_starts is not None:
                dump_starts.extend(primary.state.dump_starts)
