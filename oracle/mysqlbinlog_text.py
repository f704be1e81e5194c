"""Parse the text of `mysqlbinlog -vvv` (MySQL) or `mariadb-binlog -vvv` (MariaDB) into events.

The real tools are the reference the oracle is checked against (oracle/verify.py), so this reads
their output as it is, with no help from the binary log: per event, the `# at N` position, the
header line that Log_event::print_header writes (timestamp, server id, end_log_pos, checksum) and
the body data the event's print() function writes (oracle/mysqlbinlog_labels.py maps each label
to its type codes and parses the body lines).

Things the text does not carry are absent, not guessed: event_size, most flags, the checksum's
verification. The printed time is local time; run the tools with TZ=UTC (verify.py does) for the
timestamp to be the stored one. Where a printed label fits more than one type code (mariadb-binlog
prints "Write_rows" for both type 23 and 30) the event keeps every candidate.
"""
from __future__ import annotations

import calendar
import re
from collections import deque
from typing import Any

from .mysqlbinlog_events import TextDump, TextEvent
from .mysqlbinlog_labels import identify
from .mysqlbinlog_rows import RowCollector

# Log_event::print_header: "#%02d%02d%02d %2d:%02d:%02d server id %lu  end_log_pos %s " then,
# with a checksum, "<alg name> 0x%08lx "; the event's print() continues on the same line.
_HEADER = re.compile(
    r"#(\d\d)(\d\d)(\d\d) ([ \d]\d):(\d\d):(\d\d) server id (\d+)  end_log_pos (\d+) "
    r"(?:([A-Z0-9]+) 0x([0-9a-f]{8}) )?(.*)$")
_AT = re.compile(r"# at (\d+)$")
_IN_USE = "# Warning: this binlog is either in use or was not closed properly."
# What the tool prints after the last event ("ROLLBACK /* added by mysqlbinlog */ /*!*/;",
# "SET @@SESSION.GTID_NEXT= 'AUTOMATIC' /* added by mysqlbinlog */ /*!*/;", "DELIMITER ;") ends
# that event's text: read as part of it, a last Previous_gtids took it into its set.
_TRAILER_END = "/* added by mysqlbinlog */ /*!*/;"
_TRAILER_DELIMITER = "DELIMITER ;"
# mysqlbinlog 8.0 ends these with "!", 9.x with "."
_NESTED_START = ("# Start of compressed events!", "# Start of compressed events.")
_NESTED_END = ("# End of compressed events!", "# End of compressed events.")
_TOOL_ERROR = re.compile(r"ERROR: (?:Could not read entry at offset (\d+): )?(.*)$")


def header_timestamp(yy: str, mo: str, dd: str, hh: str, mi: str, ss: str) -> int:
    """print_timestamp prints tm_year % 100; read years 70..99 as 19xx, the rest as 20xx."""
    year = int(yy) + (1900 if int(yy) >= 70 else 2000)
    return calendar.timegm((year, int(mo), int(dd), int(hh), int(mi), int(ss), 0, 0, 0))


class _Parser:
    def __init__(self) -> None:
        self.events: list[TextEvent] = []
        self.pending: deque[int] = deque()
        self.current: TextEvent | None = None
        self.nested = False
        self.in_base64 = False
        self.rows = RowCollector()
        self.complete = False
        self.error: str | None = None
        self.error_offset: int | None = None
        self.warnings: list[str] = []

    def feed(self, line: str) -> None:
        if self.in_base64:  # BINLOG '<base64 of the events>'/*!*/; carries nothing we read
            self.in_base64 = not line.startswith("'")
            return
        if line == "BINLOG '":
            self.in_base64 = True
            return
        if line.startswith("###") or self.rows.takes(line):
            self.rows.feed(line)
            return
        at = _AT.match(line)
        if at:
            self._close()
            self.pending.append(int(at[1]))
            return
        header = _HEADER.match(line)
        if header:
            self._close()
            self._open(header)
            return
        self._other(line)

    def _open(self, m: re.Match[str]) -> None:
        position = self.pending.popleft() if self.pending else None
        self.current = TextEvent(
            position=position, next_position=int(m[8]), server_id=int(m[7]),
            timestamp=header_timestamp(*m.group(1, 2, 3, 4, 5, 6)),
            checksum_alg=m[9], checksum=int(m[10], 16) if m[10] else None,
            label=m[11].lstrip("\t"), type_codes=(), nested=self.nested)
        self.events.append(self.current)

    def _other(self, line: str) -> None:
        if line in _NESTED_START:
            self._close()
            self.nested = True
        elif line in _NESTED_END:
            self._close()
            self.nested = False
        elif line == "# End of log file":
            self._close()
            self.complete = True
        elif line.endswith(_TRAILER_END) or line == _TRAILER_DELIMITER:
            self._close()
        elif line.startswith(("ERROR: ", "WARNING: ")):
            self._tool_message(line)
        elif self.current is not None:
            if line == _IN_USE:
                self.current.in_use = True
            else:
                self.current.lines.append(line)

    def _tool_message(self, line: str) -> None:
        if line.startswith("WARNING: "):
            self.warnings.append(line[len("WARNING: "):])
            return
        m = _TOOL_ERROR.match(line)
        if m is None:
            return
        if self.error is None:
            self.error = m[2]
        if m[1] and self.error_offset is None:
            self.error_offset = int(m[1])

    def _close(self) -> None:
        """Finish the current event: identify it from its label and body lines; hand the rows
        printed so far to the rows events that were waiting for them."""
        ev = self.current
        if ev is not None:
            self.current = None
            ev.type_codes, ev.body = identify(ev.label, ev.lines)
            self.rows.add_event(ev)
        self.rows.flush()

    def finish(self) -> TextDump:
        self._close()
        return TextDump(self.events, self.complete, self.error, self.error_offset, self.warnings)


def parse(text: str, stderr: str = "") -> TextDump:
    """Parse a tool's stdout (and optionally its stderr, where ERROR/WARNING lines go)."""
    p = _Parser()
    # split on \n only: str.splitlines would also split inside SQL at \v, \f, \x1c-\x1e, ...
    for line in text.split("\n"):
        p.feed(line)
    for line in stderr.split("\n"):
        if line.startswith(("ERROR: ", "WARNING: ")):
            p._tool_message(line)
    return p.finish()


def decode_output(raw: bytes) -> str:
    """The tools print SQL and names as the raw bytes they hold; keep undecodable bytes
    recoverable (values.text re-encodes them) instead of failing or replacing them."""
    return raw.decode("utf-8", "surrogateescape")
