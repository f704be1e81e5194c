"""Shared by the two real reference tools, MySQL's mysqlbinlog and MariaDB's mariadb-binlog:
run the tool with -vvv, read its text with oracle/mysqlbinlog_text.py, and hand back canonical
events for what the text carries.

The text does not carry everything, and a field it does not show for one event is listed in
that event's `_undetermined` (see harness/compare.py) rather than guessed: a label that fits two
type codes (mariadb-binlog prints Write_rows for 23 and 30), a position the tool did not print,
the 0 it prints as end_log_pos of binlog v1 events, body fields it did not print."""
from __future__ import annotations

import abc
from typing import Any

from .base import BaseParser, Capabilities, ParseError

HEADER = frozenset(("position", "next_position", "type_code", "server_id", "timestamp", "checksum.stored"))
# Body fields the text parser reads (oracle/verify.py compares the same ones).
BODY_FIELDS = frozenset(("binlog_version", "server_version", "thread_id", "query_exec_time", "error_code",
                         "db", "query", "ddl_xid", "xid", "pos", "new_log_ident", "table_id", "db_name",
                         "table_name", "last_committed", "sequence_number", "original_commit_timestamp",
                         "immediate_commit_timestamp", "transaction_length", "gtid_set", "domain_id",
                         "seq_no", "binlog_file_name", "seed1", "seed2", "val"))
CAPABILITIES = Capabilities(HEADER, {"*": BODY_FIELDS}, every_event=True, partial_events=True)


class ToolRunFailed(RuntimeError):
    """The tool died (signal, docker failure): a crash of the parser under test."""


def _restore_bytes(value: Any) -> Any:
    """The tool output is read with surrogateescape: a string still holding escaped bytes was
    not UTF-8, and the canonical model carries it as tagged bytes."""
    from oracle.values import text
    if isinstance(value, str):
        return text(value.encode("utf-8", "surrogateescape"))
    if isinstance(value, dict):
        return {k: _restore_bytes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore_bytes(v) for v in value]
    return value


def _row_images(row: dict[str, Any]) -> dict[str, Any]:
    """A `###` row (oracle/mysqlbinlog_rows.py) in the canonical row's shape: which images the
    tool printed (WHERE the before image, SET the after image). Its values stay the tool's text:
    rows are not a claimed body field (the oracle is checked against this text in
    tests/test_corpus_vs_tool.py), but their number and images are checked like any parser's."""
    before, after = row.get("before"), row.get("after")
    if row.get("kind") == "UPDATE":
        return {"before_image": {"values": before or []}, "after_image": {"values": after or []}}
    return {"values": (after if row.get("kind") == "INSERT" else before) or []}


def _rows(event: dict[str, Any], undetermined: list[str]) -> None:
    """Rows the tool printed for this very event get the canonical images; where it printed
    them for the statement as a whole (several rows events, no per-event counts), how many belong
    to this event is not known."""
    body = event.get("body")
    rows = body.get("rows") if isinstance(body, dict) else None
    if isinstance(rows, list):
        body["rows"] = [_row_images(r) for r in rows if isinstance(r, dict)]
    else:
        undetermined.append("body.rows")


def canonical(t: Any) -> dict[str, Any]:
    from oracle.event_types import type_name
    from oracle.events import T
    from oracle.mysqlbinlog_rows import is_rows_event
    event = _restore_bytes(t.to_json())
    undetermined = [f"body.{f}" for f in sorted(BODY_FIELDS - set(t.body))]
    if is_rows_event(t):
        _rows(event, undetermined)
    elif t.type_code == T.TRANSACTION_PAYLOAD_EVENT:
        undetermined.append("body.events")  # the tool prints them after it; they are not regrouped here
    if t.type_code is None:
        undetermined += ["type_code", "type"]
    else:
        event["type"] = type_name(t.type_code)
    if t.position is None:
        undetermined.append("position")
    if t.next_position == 0:
        undetermined.append("next_position")
    if t.checksum_alg is None:  # nothing printed: the tool does not say which algorithm, if any
        undetermined.append("checksum.stored")
    event["_undetermined"] = undetermined
    return event


class TextToolParser(BaseParser):
    capabilities = CAPABILITIES

    @abc.abstractmethod
    def run_tool(self, path: str) -> tuple[bytes, bytes, int]:
        """(stdout, stderr, returncode) of `tool -vvv path`, printed times in UTC."""

    def parse(self, path: str) -> list[dict[str, Any]]:
        from oracle.mysqlbinlog_text import decode_output, parse
        out, err, rc = self.run_tool(path)
        if rc < 0 or rc >= 125:  # a signal, or docker could not run the tool at all
            raise ToolRunFailed(f"{self.name} exit status {rc}: {decode_output(err).strip()[-500:]}")
        dump = parse(decode_output(out), decode_output(err))
        events = [canonical(t) for t in dump.events if not t.nested]
        # A warning about a cut last event (exit 0) still means the tool detected bad input.
        if rc != 0 or dump.stopped_early:
            stderr_lines = [ln for ln in decode_output(err).splitlines() if ln.strip()]
            message = (dump.error or next(iter(dump.warnings), None)
                       or (stderr_lines[-1].strip() if stderr_lines else f"exit status {rc}"))
            raise ParseError("ToolError", message, dump.error_offset, events)
        return events
