"""The on-disk form of an annotated case, and what can be rebuilt from its binlogs alone.

corpus/<server>/<scenario>--<config>/ holds the binlog file(s) exactly as the server wrote them,
`<file>.vvv.txt` (the server's own mysqlbinlog/mariadb-binlog -vvv), `<file>.expected.jsonl` (the
oracle's canonical decode) and case.json (corpus/case.schema.json). Expected output and the
event/column summaries derive from the binlogs and the oracle only, so `refresh` rewrites them
after a decoder change without any server.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from oracle.decoder import decode_file
from oracle.errors import BinlogError

from .profiles import ServerProfile
from .tools import run_in_image

SCHEMA_VERSION = 1
CASE_FILE = "case.json"
TOOL_SUFFIX = ".vvv.txt"
EXPECTED_SUFFIX = ".expected.jsonl"
TOOL_ARGS = ("-vvv",)
CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"
SCHEMA_PATH = CORPUS_DIR / "case.schema.json"

_TYPE_PREFIX = "MYSQL_TYPE_"
# Table_map says STRING for ENUM and SET; the real type is the high byte of the column metadata.
_STRING_REAL_TYPES = {247: "ENUM", 248: "SET"}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def oracle_lines(path: Path) -> list[str]:
    """The oracle's canonical decode as JSON lines, as `python -m oracle decode` prints them;
    a decode error becomes a final {"error": ...} line so it is part of what is compared."""
    lines = []
    try:
        for event in decode_file(path):
            lines.append(json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")))
    except BinlogError as e:
        lines.append(json.dumps({"error": {"kind": e.kind, "offset": e.offset, "message": e.message}},
                                ensure_ascii=False, separators=(",", ":")))
    return lines


def write_expected(binlog: Path) -> Path:
    out = binlog.with_name(binlog.name + EXPECTED_SUFFIX)
    out.write_text("".join(line + "\n" for line in oracle_lines(binlog)), encoding="utf-8")
    return out


def _events(objs: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every event, including those nested in a Transaction_payload."""
    for ev in objs:
        yield ev
        nested = ev.get("body", {}).get("events") if isinstance(ev.get("body"), dict) else None
        if isinstance(nested, list):
            yield from _events(nested)


def _column_types(body: dict[str, Any]) -> Iterator[str]:
    names = body.get("column_type_names") or []
    meta = body.get("column_metadata") or [None] * len(names)
    for name, m in zip(names, meta):
        short = str(name).removeprefix(_TYPE_PREFIX)
        if short == "STRING" and isinstance(m, int) and (m >> 8) in _STRING_REAL_TYPES:
            short = _STRING_REAL_TYPES[m >> 8]
        yield short


def summarize(lines: Iterable[str]) -> tuple[list[str], list[str]]:
    """(event type names, column type names) found in canonical decode lines."""
    objs = [o for o in map(json.loads, lines) if "error" not in o]
    types, columns = set(), set()
    for ev in _events(objs):
        types.add(ev["type"])
        if ev["type"] == "TABLE_MAP_EVENT":
            columns.update(_column_types(ev["body"]))
    return sorted(types), sorted(columns)


def tool_command(profile: ServerProfile) -> str:
    return f"{profile.binlog_tool} {' '.join(TOOL_ARGS)}"


def write_tool_text(profile: ServerProfile, binlog: Path) -> dict[str, Any]:
    """The server's own decoder over the file, from the server's image (so versions match)."""
    proc = run_in_image(profile.decoder_image, profile.binlog_tool, binlog, TOOL_ARGS)
    out = binlog.with_name(binlog.name + TOOL_SUFFIX)
    out.write_bytes(proc.stdout)
    entry: dict[str, Any] = {"path": out.name, "sha256": sha256_file(out),
                             "command": tool_command(profile), "image": profile.decoder_image,
                             "exit_code": proc.returncode}
    if proc.stderr:
        entry["stderr"] = proc.stderr.decode(errors="replace")[-2000:]
    return entry


def expected_entry(binlog: Path) -> dict[str, str]:
    out = write_expected(binlog)
    return {"path": out.name, "sha256": sha256_file(out)}


def file_entry(binlog: Path, tool: dict[str, Any], server_events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": binlog.name, "size": binlog.stat().st_size, "sha256": sha256_file(binlog),
            "tool_text": tool, "expected": expected_entry(binlog), "server_events": server_events}


def add_summaries(case: dict[str, Any], case_dir: Path) -> None:
    """Fill event_types/column_types (all files) from the expected decodes on disk."""
    lines: list[str] = []
    for f in case["binlogs"]:
        lines += (case_dir / f["expected"]["path"]).read_text(encoding="utf-8").splitlines()
    case["event_types"], case["column_types"] = summarize(lines)


def _dumps(obj: Any, indent: str = "") -> str:
    """Indented JSON whose small objects and lists stay on one line (readable, and compact)."""
    flat = json.dumps(obj, ensure_ascii=False)
    if not isinstance(obj, (dict, list)) or len(flat) + len(indent) <= 100 or not obj:
        return flat
    inner = indent + " "
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + _dumps(v, inner) for v in obj) + "\n" + indent + "]"


def write_case_json(case_dir: Path, case: dict[str, Any]) -> None:
    text = _dumps(case) + "\n"
    (case_dir / CASE_FILE).write_text(text, encoding="utf-8")


def read_case(case_dir: Path) -> dict[str, Any]:
    return json.loads((case_dir / CASE_FILE).read_text(encoding="utf-8"))


def iter_case_dirs(root: Path = CORPUS_DIR) -> list[Path]:
    return sorted(p.parent for p in root.glob(f"*/*/{CASE_FILE}"))


def refresh(case_dir: Path) -> bool:
    """Rewrite expected decodes and summaries from the current oracle; True when anything changed."""
    case = read_case(case_dir)
    before = json.dumps(case, sort_keys=True)
    old = {f["name"]: _read_or_none(case_dir / f["expected"]["path"]) for f in case["binlogs"]}
    for f in case["binlogs"]:
        f["expected"] = expected_entry(case_dir / f["name"])
    add_summaries(case, case_dir)
    write_case_json(case_dir, case)
    rewritten = any(old[f["name"]] != (case_dir / f["expected"]["path"]).read_bytes()
                    for f in case["binlogs"])
    return rewritten or json.dumps(case, sort_keys=True) != before


def _read_or_none(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None
