"""`python -m tests.speedups_digest FILE...`: what the oracle's two commands print for each file,
as one JSON line per file: {"file", "decode", "rows"}, each the sha256 of the command's stdout
followed by its error line (or "" when it decoded to the end).

tests/test_speedups_identity.py runs it twice, with and without BINLOG_ORACLE_PURE=1, so the
compiled accelerators and the pure Python are compared on exactly what users read, without a
process per file (the switch is read once, at import).
"""
from __future__ import annotations

import hashlib
import json
import sys
from typing import Callable, Iterable, Iterator

from oracle.decoder import decode_file
from oracle.errors import BinlogError
from oracle.jsonlines import json_line
from oracle.render_rows import render_bytes


def _decode_lines(path: str) -> Iterator[bytes]:
    return (json_line(e.to_json()) for e in decode_file(path))


def _rows_blocks(path: str) -> Iterator[bytes]:
    return render_bytes(e.to_json() for e in decode_file(path))


def digest(chunks: Callable[[str], Iterable[bytes]], path: str) -> str:
    """sha256 of the output and the error line, as the command would print them."""
    h = hashlib.sha256()
    try:
        for chunk in chunks(path):
            h.update(chunk)
    except BinlogError as e:
        h.update(f"\nerror: {e.kind} at offset {e.offset}: {e.message}".encode())
    return h.hexdigest()


def main(paths: list[str]) -> int:
    for path in paths:
        print(json.dumps({"file": path, "decode": digest(_decode_lines, path),
                          "rows": digest(_rows_blocks, path)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
