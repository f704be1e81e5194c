"""The reference decoder as a plugin: it must pass its own corpus, and crashes or hangs in it
are found the same way as in any other parser."""
from __future__ import annotations

from typing import Any

from .base import FULL, BaseParser, ParseError, delivering


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("binlog-conformance")
    except Exception:  # not installed: running from the source tree
        return "source"


class OracleParser(BaseParser):
    name = "oracle"
    capabilities = FULL

    def __init__(self) -> None:
        self.version = _version()

    def parse(self, path: str) -> list[dict[str, Any]]:
        from oracle import BinlogError, decode_file
        events: list[dict[str, Any]] = delivering([])
        try:
            for event in decode_file(path):
                events.append(event.to_json())
        except BinlogError as e:
            raise ParseError(e.kind, e.message, e.offset, events) from e
        return events
