"""Find the cases of a corpus: annotated case directories (case.json + binlog file(s) + an
expected decode) or bare binlog files (then the oracle's decode is the expectation).

A case is one binlog file. Ids are `<corpus dir name>/<path inside it>`, stable across machines,
so expected-failure files can name them."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .packaged import DATA_PACKAGE

CASE_FILE = "case.json"
# Never binlogs: metadata, expected decodes, reference tool output, docs.
NOT_BINLOG_SUFFIXES = (".json", ".jsonl", ".txt", ".md", ".tsv", ".csv", ".py", ".sh", ".sql", ".xml", ".html",
                       ".java")


@dataclass(frozen=True)
class Case:
    id: str
    path: Path
    meta: dict[str, Any] = field(default_factory=dict)
    expected_file: Path | None = None

    @property
    def annotated(self) -> bool:
        return self.expected_file is not None


def _is_binlog_candidate(p: Path) -> bool:
    return p.is_file() and not p.name.startswith(".") and not p.name.lower().endswith(NOT_BINLOG_SUFFIXES)


def _case_files(case_dir: Path, meta: dict[str, Any]) -> list[Path]:
    listed = meta.get("files") or ([meta["binlog"]] if meta.get("binlog") else None)
    if listed:
        return [case_dir / str(name) for name in listed]
    return sorted(p for p in case_dir.iterdir() if _is_binlog_candidate(p))


def _expected_for(case_dir: Path, binlog: Path, meta: dict[str, Any], single: bool) -> Path | None:
    candidates = [case_dir / f"{binlog.name}.expected.jsonl"]
    if single:
        candidates += [case_dir / str(meta.get("expected", "expected.jsonl"))]
    return next((c for c in candidates if c.is_file()), None)


def _annotated(root: Path, case_dir: Path) -> Iterator[Case]:
    try:
        meta = json.loads((case_dir / CASE_FILE).read_text())
    except (OSError, ValueError) as e:
        raise CorpusError(f"{case_dir / CASE_FILE}: {e}") from e
    files = _case_files(case_dir, meta)
    single = len(files) == 1
    base = f"{corpus_label(root)}/{case_dir.relative_to(root).as_posix()}"
    for f in files:
        yield Case(base if single else f"{base}/{f.name}", f, meta, _expected_for(case_dir, f, meta, single))


def corpus_label(root: Path) -> str:
    """The first part of a case id: the corpus directory's name, and "corpus" for the copy a
    wheel installs, so expected-failure files name the same cases in a checkout and installed."""
    return "corpus" if root.name == DATA_PACKAGE else root.name


def discover(root: Path) -> list[Case]:
    """Every case under root, sorted by id. A directory with case.json is one annotated case;
    other files are bare binlogs."""
    root = root.resolve()
    label = corpus_label(root)
    if root.is_file():
        return [Case(root.name, root)]
    if not root.is_dir():
        raise CorpusError(f"corpus {root} does not exist")
    cases: list[Case] = []

    def walk(d: Path) -> None:
        if (d / CASE_FILE).is_file():
            cases.extend(_annotated(root, d))
            return
        for p in sorted(d.iterdir()):
            if p.is_dir() and not p.name.startswith("."):
                walk(p)
            elif _is_binlog_candidate(p):
                cases.append(Case(f"{label}/{p.relative_to(root).as_posix()}", p))

    walk(root)
    return sorted(cases, key=lambda c: c.id)


class CorpusError(Exception):
    pass
