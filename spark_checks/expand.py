"""Deterministic mutant expansion: mutant k of a case depends only on (run seed, case id, k, case
bytes), never on which machine, partition or order it is built in, so a run can be repeated
exactly and a single process can rebuild the same mutants to check a Spark run.

Mutants come from the mutation catalogue (harness/mutations) applied to the small windows of the
case the fuzz engines use (harness/fuzz/seeds.py): a 100 MB binlog gives 16 KB mutants, so one
mutant costs milliseconds and ships cheaply between executors."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Iterator

from harness.fuzz.seeds import DEFAULT_MAX_BYTES, DEFAULT_WINDOWS, windows
from harness.mutations import CATALOGUE, Binlog, NotApplicable, mutate

MUTANT_MARK = "~m"  # mutant ids: <case id>~m<k>


@dataclass(frozen=True)
class Mutant:
    id: str
    parent: str
    index: int
    operator: str
    rng_seed: str
    description: str
    expect: str
    data: bytes


def mutant_id(case_id: str, k: int) -> str:
    return f"{case_id}{MUTANT_MARK}{k}"


def _start(seed: int, case_id: str, k: int, n_ops: int) -> int:
    # crc32, not hash(): Python's str hash changes from process to process.
    return zlib.crc32(f"{seed}:{case_id}:{k}".encode("utf-8", "surrogateescape")) % n_ops


def _seeds(case_id: str, data: bytes, max_bytes: int) -> list[Binlog]:
    """The parsed windows of a case; none when it is not a binlog at all (no magic)."""
    try:
        return [Binlog.parse(w.data) for w in windows(case_id, data, max_bytes, DEFAULT_WINDOWS)]
    except ValueError:
        return []


def mutants(case_id: str, data: bytes, n: int, seed: int,
            max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Mutant]:
    """Up to n mutants of one case. Mutant k uses window k mod #windows and the first operator,
    in catalogue order from a seeded start, that has something to mutate there; a k for which no
    operator applies gives no mutant (so a case may give fewer than n)."""
    if n <= 0:
        return
    seeds = _seeds(case_id, data, max_bytes)
    if not seeds:
        return
    ops = list(CATALOGUE)
    for k in range(n):
        binlog = seeds[k % len(seeds)]
        start = _start(seed, case_id, k, len(ops))
        for attempt in range(len(ops)):
            op = ops[(start + attempt) % len(ops)]
            rng_seed = f"{seed}:{case_id}:{k}:{op}"
            try:
                m = mutate(op, binlog, rng_seed)
            except NotApplicable:
                continue
            yield Mutant(mutant_id(case_id, k), case_id, k, op, rng_seed, m.description,
                         m.expect.value, m.data)
            break
