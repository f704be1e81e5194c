"""Seed binlogs for the fuzz engines: every binlog under the given directories (corpus/,
../shared/external-binlogs, ...), recognised by their magic, cut into windows of at most
`max_bytes` at event boundaries so one mutated input costs milliseconds, not a second.

A window of a large file is its leading events up to and including the first Format_description,
then a run of events starting at a transaction boundary (a GTID event, or a Query when the file has
no GTIDs), so most windows still decode cleanly and operators' promises can be checked on them.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from harness.mutations import Binlog
from harness.packaged import PROJECT_ROOT, corpus_dir
from oracle.event_types import EventType as T
from oracle.framing import MAGIC

DEFAULT_MAX_BYTES = 16 * 1024
DEFAULT_WINDOWS = 3
_TRANSACTION_STARTS = (T.GTID_LOG_EVENT, T.ANONYMOUS_GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT, T.GTID_EVENT)


@dataclass(frozen=True)
class Seed:
    name: str  # file path, with "@event" for windows that do not start at the beginning
    data: bytes


def find_binlogs(dirs: Iterable[str | os.PathLike[str]]) -> list[Path]:
    out = []
    for d in dirs:
        root = Path(d)
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink():
                with open(path, "rb") as f:
                    if f.read(len(MAGIC)) == MAGIC:
                        out.append(path)
    return out


def windows(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES,
            count: int = DEFAULT_WINDOWS) -> list[Seed]:
    """The file itself when it is small enough, else up to `count` windows of it."""
    if len(data) <= max_bytes:
        return [Seed(name, data)]
    b = Binlog.parse(data)
    fde = b.fde_index()
    lead = b.events[:(fde or 0) + 1]
    budget = max_bytes - len(MAGIC) - sum(ev.size() for ev in lead)
    gtid = b.indices(*_TRANSACTION_STARTS)
    starts = gtid or b.indices(T.QUERY_EVENT) or list(range(len(lead), len(b.events)))
    starts = [s for s in starts if s >= len(lead)]
    picks = sorted({starts[k * len(starts) // count] for k in range(count)}) if starts else []
    if not picks or picks[0] != len(lead):
        picks = [len(lead)] + picks[:count - 1]
    out = []
    for start in picks:
        run, used = [], 0
        for ev in b.events[start:]:
            if used + ev.size() > budget and run:
                break
            run.append(ev)
            used += ev.size()
        window = Binlog(b.magic, lead + run)
        suffix = "" if start == len(lead) else f"@{start}"
        out.append(Seed(name + suffix, window.copy().assemble()))
    return out


def load_seeds(dirs: Iterable[str | os.PathLike[str]], max_bytes: int = DEFAULT_MAX_BYTES,
               count: int = DEFAULT_WINDOWS) -> list[Seed]:
    seeds: list[Seed] = []
    for path in find_binlogs(dirs):
        seeds.extend(windows(str(path), path.read_bytes(), max_bytes, count))
    return seeds


def default_seed_dirs(project: Path | None = None) -> list[Path]:
    """The corpus (the checkout's, or the installed package's) and ../shared/external-binlogs
    (or $EXTERNAL_BINLOGS) beside the project."""
    root = project or PROJECT_ROOT
    external = Path(os.environ.get("EXTERNAL_BINLOGS", root.parent / "shared" / "external-binlogs"))
    return [root / "corpus" if project else corpus_dir(), external]


SEEDS_MANIFEST = "seeds.sha1"  # beside a corpus folder: the sha1 of each seed written into it


def write_corpus(corpus: Path, seeds: Iterable[bytes], max_len: int) -> None:
    """The seeds as an engine's corpus folder, each named by its sha1 (as libFuzzer names the
    inputs it adds), and their list in SEEDS_MANIFEST beside the folder: what the engine added is
    what is not on it (grown_inputs)."""
    corpus.mkdir(parents=True, exist_ok=True)
    names = []
    for data in seeds:
        if len(data) <= max_len:
            name = hashlib.sha1(data).hexdigest()
            (corpus / name).write_bytes(data)
            names.append(name)
    (corpus.parent / SEEDS_MANIFEST).write_text("\n".join(sorted(set(names))) + "\n")


def grown_inputs(corpus: Path, extra: Iterable[bytes] = ()) -> list[bytes]:
    """The inputs an engine added to `corpus` (the ones that raised its coverage), and `extra`
    (an engine's inputs kept elsewhere), without the seeds of SEEDS_MANIFEST; [] without one."""
    manifest = corpus.parent / SEEDS_MANIFEST
    if not manifest.is_file():
        return []
    seeds = set(manifest.read_text().split())
    found = {}
    kept = [p.read_bytes() for p in sorted(corpus.iterdir()) if p.is_file()] if corpus.is_dir() else []
    for data in [*kept, *extra]:
        digest = hashlib.sha1(data).hexdigest()
        if digest not in seeds:
            found[digest] = data
    return list(found.values())
