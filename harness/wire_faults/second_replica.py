"""A second replica with the testee's identity, for the wire fault `second-replica`: its server_id
and, when the testee sent one, its replica UUID (@slave_uuid: a MySQL server matches replicas by
UUID first, so one that sent a UUID is only ever met by a clone of its host that copied it). It
logs in to the primary with PyMySQL (as generators/capture.py does) and dumps the same file, as a
clone of the testee's host with its configuration would. A real server then ends the testee's dump with ERR
(harness/primary/running_dumps.py). This one asks for a non-blocking dump, reads it to its end and
leaves, so that a testee that reconnects finds nobody in its way."""
from __future__ import annotations

import threading

import pymysql

from generators.capture import DumpRequest  # the COM_BINLOG_DUMP the capture client sends


def _dump(host: str, port: int, login: tuple[str, str], server_id: int, uuid: str, file: str,
          begun: threading.Event, problems: list[str]) -> None:
    try:
        conn = pymysql.connect(host=host, port=port, user=login[0], password=login[1], ssl_disabled=True,
                               connect_timeout=10, read_timeout=30)
    except pymysql.MySQLError as e:
        problems.append(f"the second replica could not log in: {e}")
        begun.set()
        return
    try:
        conn.query("SET @master_binlog_checksum = 'CRC32'")
        if uuid:
            conn.query(f"SET @slave_uuid = {conn.escape(uuid)}")
        payload = DumpRequest("second-replica", file, server_id=server_id).payload()  # non-blocking, from 4
        conn._execute_command(payload[0], payload[1:])
        first = conn._rfile.read(4)  # the dump's first packet header: the primary has registered it
        begun.set()
        while first and conn._rfile.read(1 << 16):
            pass
    except (pymysql.MySQLError, OSError) as e:
        problems.append(f"the second replica's dump failed: {e}")
    finally:
        begun.set()
        if conn._sock is not None:
            conn._sock.close()


def start(host: str, port: int, login: tuple[str, str], server_id: int, uuid: str, file: str,
          timeout: float = 10.0) -> str | None:
    """Start the second replica's dump; return once the primary has begun it (None), or why it
    did not begin within `timeout` seconds."""
    begun, problems = threading.Event(), []
    threading.Thread(target=_dump, args=(host, port, login, server_id, uuid, file, begun, problems), daemon=True,
                     name="second-replica").start()
    if not begun.wait(timeout):
        return f"the second replica's dump did not begin within {timeout:g} s"
    return problems[0] if problems else None
