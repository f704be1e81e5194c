"""Two commands for CDC pipelines (docs/cdc.md):

    python -m harness stream --parser NAME --host H --port P --user U --password PW
                             --file F [--start-position 4] --end-file F2 --end-position N
        one stream testee (e.g. debezium-mysql: Debezium's embedded engine) against any primary,
        `harness serve` or a real server; its events as JSON lines on stdout
    python -m harness cdc-control --parser NAME [--server PROFILE]... [--work DIR]
        the control experiment on its sample (sample.py), one line per case on stderr
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..isolation import Limits
from ..plugins.launch import Testee, named
from ..plugins.protocol import ERROR, EVENTS, StreamSource

if TYPE_CHECKING:
    from .sample import ServerPlan

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_commands(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("stream", help="run one stream parser (e.g. debezium-mysql) against a primary and "
                                      "print its events as JSON lines")
    s.add_argument("--parser", required=True, metavar="NAME", help="a stream parser (python -m harness list)")
    for flag, default in (("--host", "127.0.0.1"), ("--user", "root"), ("--password", "")):
        s.add_argument(flag, default=default, help=f"default {default!r}")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--file", required=True, help="the first binlog file")
    s.add_argument("--start-position", type=int, default=4, help="default 4: its first event")
    s.add_argument("--end-file", required=True, help="the file the stream ends in")
    s.add_argument("--end-position", type=int, required=True,
                   help="where its last event ends (a whole served file: its size)")
    s.add_argument("--timeout", type=float, default=180.0, help="seconds for the whole stream (default 180)")
    s.set_defaults(run=_stream)
    c = sub.add_parser("cdc-control", help="the control experiment: a stream parser against real servers "
                                           "replaying corpus cases and against harness serve serving "
                                           "their binlogs (docs/cdc.md)")
    c.add_argument("--parser", default="debezium-mysql", metavar="NAME", help="default debezium-mysql")
    c.add_argument("--corpus", default="corpus", metavar="DIR", help="default corpus/")
    c.add_argument("--server", action="append", default=[], metavar="PROFILE",
                   help="only these servers of the sample (repeatable; default all)")
    c.add_argument("--work", metavar="DIR", help="where the replayed binlogs go (default: a temporary directory)")
    c.add_argument("--timeout", type=float, default=180.0, help="seconds per stream (default 180)")
    c.set_defaults(run=_control)


def _stream(args: argparse.Namespace) -> int:
    source = StreamSource(args.host, args.port, args.user, args.password, args.file, args.start_position,
                          args.end_file, args.end_position)
    testee = named(args.parser, Limits(timeout=args.timeout))
    try:
        hello = testee.hello()
        if hello is None or hello.unavailable:
            failure = testee.start_failure()
            why = hello.unavailable if hello else (failure.detail if failure else "did not start")
            print(f"error: {args.parser} cannot run: {why}", file=sys.stderr)
            return EXIT_USAGE
        reply = testee.parse(args.file, source)
    finally:
        testee.close()
    for event in reply.events:
        print(json.dumps(event, ensure_ascii=False, separators=(",", ":")))
    if reply.status == EVENTS:
        return EXIT_OK
    print(f"error: {reply.error}" if reply.status == ERROR else f"error: {reply.status}: {reply.detail}",
          file=sys.stderr)
    return EXIT_FAILED


def _control(args: argparse.Namespace) -> int:
    from .run import control_environment
    from .sample import choose
    plans = [p for p in choose(Path(args.corpus)) if not args.server or p.profile in args.server]
    with control_environment():  # while the testee may (re)start
        testee = named(args.parser, Limits(timeout=args.timeout))
        return _control_run(args, plans, testee)


def _control_run(args: argparse.Namespace, plans: list[ServerPlan], testee: Testee) -> int:
    from .run import log, run_plan
    started, outcomes = time.monotonic(), []
    try:
        with tempfile.TemporaryDirectory(prefix="cdc-control-") as tmp:
            for plan in plans:
                outcomes += run_plan(plan, testee, Path(args.work or tmp))
    finally:
        testee.close()
    differing = [o for o in outcomes if o.differences]
    for o in differing:
        print(o.summary(), *(f"  {d}" for d in o.differences[:20]), sep="\n")
    log(f"{len(outcomes)} case(s) on {len(plans)} server(s), {len(differing)} with differences, "
        f"{time.monotonic() - started:.0f}s")
    return EXIT_FAILED if differing else EXIT_OK
