"""Findings and their reproducers: the input bytes as <stem>.bin and a JSON note as <stem>.json
(operator, description, seed, RNG seed, outcome), so any finding can be replayed by hand
(`python -m oracle decode <stem>.bin`) or by name (harness.mutations.mutate).

Kinds: crash (an exception that is not a BinlogError), hang (over the per-input time limit),
memory (MemoryError or the child killed under RLIMIT_AS), bad-crc-accepted (a corrupted CRC32
decoded silently), expectation (an outcome that breaks the operator's declared expectation),
differential (a parser disagrees with the oracle on the same input: outcome class or a value),
wrong-value (the oracle decodes a generated binlog to values other than those it was built from).
A run keeps a few reproducers per signature and counts the rest.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CRASH, HANG, MEMORY, BAD_CRC, EXPECTATION = "crash", "hang", "memory", "bad-crc-accepted", "expectation"
DIFFERENTIAL, WRONG_VALUE = "differential", "wrong-value"
KINDS = (CRASH, HANG, MEMORY, BAD_CRC, EXPECTATION, DIFFERENTIAL, WRONG_VALUE)


@dataclass
class Finding:
    kind: str
    signature: str  # what makes two findings the same bug (kind, operator, exception site)
    detail: str
    data: bytes
    note: dict[str, Any] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        digest = hashlib.sha1(self.data).hexdigest()[:12]
        op = str(self.note.get("operator", "input")).replace("/", "_")
        return f"{self.kind}-{op}-{digest}"


@dataclass
class FindingLog:
    """Counts findings by signature and writes the first `keep` reproducers of each."""

    out_dir: Path | None
    keep: int = 3
    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def add(self, f: Finding) -> None:
        n = self.counts.get(f.signature, 0)
        self.counts[f.signature] = n + 1
        if n == 0:
            self.first[f.signature] = {"kind": f.kind, "detail": f.detail, **f.note}
        if n < self.keep and self.out_dir is not None:
            self.files.append(str(save(self.out_dir, f)))

    def by_kind(self) -> dict[str, int]:
        out = {k: 0 for k in KINDS}
        for sig, n in self.counts.items():
            out[self.first[sig]["kind"]] += n
        return out

    def summary(self) -> dict[str, Any]:
        return {"by_kind": self.by_kind(),
                "signatures": [{"signature": s, "count": n, "first": self.first[s]}
                               for s, n in sorted(self.counts.items(), key=lambda kv: -kv[1])],
                "reproducers": self.files}


def save(out_dir: Path, f: Finding) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{f.stem}.bin"
    path.write_bytes(f.data)
    note = {"kind": f.kind, "signature": f.signature, "detail": f.detail, **f.note}
    (out_dir / f"{f.stem}.json").write_text(json.dumps(note, indent=2, default=str) + "\n")
    return path
