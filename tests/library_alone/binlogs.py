"""What the live tests of the libraries do on a real server to get a binlog of their own: run
SQL in a fresh binlog (so a reading starts at that file's start), and copy a binlog out once the
server has closed it (so the file ends with its Rotate, as a server-written file does)."""
from __future__ import annotations

from pathlib import Path

from generators.server import Server


def in_a_fresh_binlog(server: Server, sql: str) -> str:
    """sql run in a binlog of its own: the server rotates first; that binlog's name."""
    server.flush_logs()
    first = server.binlog_files()[-1]
    server.execute(sql)
    return first


def closed_copy(server: Server, name: str, dest: Path) -> Path:
    """The binlog `name`, closed by a rotation, copied byte for byte into dest."""
    server.flush_logs()
    return server.copy_binlogs(dest, [name])[0]
