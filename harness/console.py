"""`binlog-conformance`: the one installed command, for a parser project that pip-installs the
suite instead of cloning it. Its subcommands are the harness's (run/conformance, serve, fuzz,
faults, list, describe, setup, peers) and the oracle's (decode, rows, verify, survey), with the
same options as `python -m harness ...` and `python -m oracle ...`, which keep working."""
from __future__ import annotations

import sys

from oracle import cli as oracle_cli

from . import cli as harness_cli

PROG = "binlog-conformance"


def main(argv: list[str] | None = None) -> int:
    return oracle_cli.run_parsed(harness_cli.build_parser(PROG, oracle_cli.add_commands).parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
