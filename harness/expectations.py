"""What a case should decode to: its committed expected.jsonl, or else the oracle's decode of
the file (differential mode). An expectation may end in a rejection."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .corpus import Case
from .plugins.protocol import ErrorInfo


@dataclass(frozen=True)
class Expectation:
    events: list[dict[str, Any]]
    error: ErrorInfo | None = None
    accept_either: bool = False  # the case may be decoded or rejected cleanly, both are right
    source: str = "oracle"
    problem: str | None = None  # set when no expectation could be made (then the case is skipped)
    server_version: str = "unknown"
    event_types: list[str] = field(default_factory=list)


def _error_from(obj: Any) -> ErrorInfo | None:
    if not isinstance(obj, dict):
        return None
    offset = obj.get("offset")
    return ErrorInfo(str(obj.get("kind", "Error")), offset if isinstance(offset, int) else None,
                     str(obj.get("message", "")))


def _server_version(events: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """From case.json (`server: {flavor, version}` as generators/casefile.py writes it, or a
    plain `server_version`), else from the Format_description the expectation holds."""
    server = meta.get("server")
    if isinstance(server, dict) and server.get("version"):
        flavor = "-MariaDB" if server.get("flavor") == "mariadb" else ""
        return f"{server['version']}{flavor}"
    if meta.get("server_version"):
        return str(meta["server_version"])
    for e in events:
        version = (e.get("body") or {}).get("server_version") if isinstance(e.get("body"), dict) else None
        if isinstance(version, str) and version:
            return version
    return "unknown"


def _finish(events: list[dict[str, Any]], error: ErrorInfo | None, meta: dict[str, Any], source: str) -> Expectation:
    either = bool(meta.get("accept_rejection")) or meta.get("outcome") == "either"
    types = sorted({str(e.get("type")) for e in events})
    return Expectation(events, error or _error_from(meta.get("expected_error")), either, source, None,
                       _server_version(events, meta), types)


def from_expected_file(case: Case) -> Expectation:
    """expected.jsonl: canonical events, one per line; a line {"error": {...}} records that
    decoding must stop there with a clean rejection."""
    assert case.expected_file is not None
    events, error = [], None
    for line in case.expected_file.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        if "error" in obj and "position" not in obj:
            error = _error_from(obj["error"])
        else:
            events.append(obj)
    return _finish(events, error, case.meta, case.expected_file.name)


def from_oracle(case: Case) -> Expectation:
    from oracle import BinlogError, decode_file
    events: list[dict[str, Any]] = []
    error = None
    try:
        for event in decode_file(case.path):
            events.append(event.to_json())
    except BinlogError as e:
        error = ErrorInfo(e.kind, e.offset, e.message)
    except Exception as e:  # an oracle bug: no expectation for this case; its own run shows the crash
        return Expectation([], problem=f"oracle failed: {type(e).__name__}: {e}")
    return _finish(events, error, case.meta, "oracle")


def from_decode(events: list[dict[str, Any]], error: ErrorInfo | None, meta: dict[str, Any]) -> Expectation:
    """The expectation of an input the oracle has already decoded (spark_checks decodes a mutant
    from its window's checkpoints, harness/fuzz/resume.py)."""
    return _finish(events, error, meta, "oracle")


def expectation_for(case: Case) -> Expectation:
    if case.expected_file is not None:
        try:
            return from_expected_file(case)
        except (OSError, ValueError) as e:
            return Expectation([], problem=f"unreadable {case.expected_file.name}: {e}")
    return from_oracle(case)
