"""`python -m oracle decode [--stream] FILE`: canonical JSON lines on stdout.

Exit 0 when the file decodes to its end; on invalid input, exit 1 with exactly one line on stderr,
`error: <Kind> at offset <N>: <message>`, after every event decoded before it was printed.
"""
from __future__ import annotations

import argparse
import sys

from .decoder import decode_file
from .errors import BinlogError
from .jsonlines import json_line
from .render_rows import main as _rows_main
from .survey import main as _survey_main
from .verify import main as _verify_main
from .wire.stream import decode_stream_file


def _records(args: argparse.Namespace):
    verify = not args.no_verify_checksums
    if args.stream:  # a captured replication stream: packets, not a file
        return decode_stream_file(args.file, verify_checksums=verify)
    return (event.to_json() for event in decode_file(args.file, verify_checksums=verify))


def _decode(args: argparse.Namespace) -> int:
    out = sys.stdout.buffer
    try:
        for record in _records(args):
            out.write(json_line(record))
    except BinlogError as e:
        out.flush()
        print(f"error: {e.kind} at offset {e.offset}: {e.message}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `| head`: the reader left; not a read error of the file
        return 0
    except OSError as e:
        print(f"error: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m oracle", description="Reference MySQL/MariaDB binlog decoder")
    add_commands(p.add_subparsers(dest="command", required=True))
    return p


def add_commands(sub: argparse._SubParsersAction) -> None:
    """decode, rows, verify, survey: here and under the binlog-conformance command."""
    d = sub.add_parser("decode", help="print canonical JSON lines, one per event")
    d.add_argument("file")
    d.add_argument("--no-verify-checksums", action="store_true", help="do not check CRC32 checksums")
    d.add_argument("--stream", action="store_true",
                   help="FILE is a captured replication stream (the server's packets after COM_BINLOG_DUMP)")
    d.set_defaults(run=_decode)
    r = sub.add_parser("rows", help="print the ### row lines exactly as mysqlbinlog -vvv does")
    r.add_argument("file")
    r.set_defaults(run=lambda a: _rows_main([a.file]))
    v = sub.add_parser("verify", help="compare with the real mysqlbinlog -vvv, event by event")
    v.add_argument("file")
    v.add_argument("--mysqlbinlog", metavar="CMD", help="tool command (default: MySQL 9.7's, via docker)")
    v.set_defaults(run=lambda a: _verify_main(a.file, a.mysqlbinlog))
    s = sub.add_parser("survey", help="decode every binlog under the dirs; a table of outcomes")
    s.add_argument("dirs", nargs="+")
    s.set_defaults(run=lambda a: _survey_main(a.dirs))


def run_parsed(args: argparse.Namespace) -> int:
    """Run a parsed command; a reader that stops early (`| head`) is no error."""
    try:
        return args.run(args)
    except BrokenPipeError:
        return 0


def main(argv: list[str] | None = None) -> int:
    return run_parsed(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
