"""A native finding as a corpus case: replayed outside the engine to confirm its signature,
minimised by events (harness/fuzz/record.py's minimiser, the replay as the judge; the engine's
own minimiser has already run on what stopped it), then written by record.write_case as
corpus/findings/<parser>/<kind>-<sha12>/ with case.json naming the engine and the signature.
A signature already recorded there for the parser is not written again."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.fuzz.record import minimize, write_case

from . import NativeTarget
from .session import Found, NativeRuntime, NativeSettings

MINIMISE_TIMEOUT_S = 3.0  # a hang is judged again on every trial: shorter than a session's limit


def recorded_signatures(findings_dir: Path, parser: str) -> dict[str, Path]:
    """signature -> case directory, for the parser's recorded cases (any engine), its stream
    twin's included (`python-mysql-replication` for `python-mysql-replication-file`: the same
    library, the same decoding code, signed alike)."""
    out = {}
    twins = {parser, parser.removesuffix("-file")}
    for case in sorted(p for twin in twins for p in (findings_dir / twin).glob("*/case.json")):
        finding = json.loads(case.read_text()).get("finding", {})
        if finding.get("signature"):
            out[finding["signature"]] = case.parent
    return out


def record(rt: NativeRuntime, built: Path, target: NativeTarget, found: Found, s: NativeSettings,
           findings_dir: Path, found_with: str) -> Path | None:
    """Write the case for one finding (None: it does not replay with its signature)."""
    data = found.reproducer.read_bytes()
    trial = NativeSettings(0, s.out, s.memory_mb, min(s.timeout, MINIMISE_TIMEOUT_S) if found.kind == "hang" else s.timeout)

    def gives(d: bytes) -> bool:
        return (rt.replay(built, target, found.entry_point, d, trial) or {}).get("signature") == found.signature

    if not gives(data):
        return None
    try:
        smaller = minimize(data, gives)
    except ValueError:  # not framed as a binlog: kept as the engine left it
        smaller = data
    note: dict[str, Any] = json.loads(found.reproducer.with_suffix(".json").read_text())
    finding = {"kind": found.kind, "signature": found.signature, "detail": found.detail,
               "engine": f"native ({rt.engine})", "entry_point": found.entry_point,
               "engine_minimised": bool(note.get("engine_minimised")), "minimized": True,
               "stack": _library_stack(note.get("stack", ""), target.library_frames),
               "found_with": found_with, "transport": "file",
               "what_a_user_sees": _user_sees(found)}
    return write_case(findings_dir, target.parser, smaller, finding,
                      "reject it cleanly with the library's own error type, or decode it, without "
                      + {"hang": "hanging", "memory": "exhausting memory"}.get(found.kind, "crashing"))


def _library_stack(stack: str, prefix: str) -> list[str]:
    """The stack lines that name the library, at most 12 (the report's evidence)."""
    return [ln.strip() for ln in stack.splitlines() if prefix in ln][:12]


def _user_sees(found: Found) -> str:
    return {"hang": "the read never returns (one core spinning; memory may grow until the process dies)",
            "memory": "the process runs out of memory and dies"}.get(
        found.kind, f"an unchecked {found.signature.split(':', 1)[-1].split('@')[0]} escapes the library's "
                    f"reader (not its documented error type): {found.detail[:200]}")
