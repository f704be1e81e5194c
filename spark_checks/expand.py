"""Deterministic mutant expansion: mutant k of a case depends only on (run seed, case id, k, case
bytes), never on which machine, partition or order it is built in, so a run can be repeated
exactly and a single process can rebuild the same mutants to check a Spark run.

Mutants come from the mutation catalogue (harness/mutations) applied to the small windows of the
case the fuzz engines use (harness/fuzz/seeds.py): a 100 MB binlog gives 16 KB mutants, so one
mutant costs milliseconds and ships cheaply between executors."""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Iterable, Iterator

from harness.fuzz.seeds import DEFAULT_MAX_BYTES, DEFAULT_WINDOWS, windows
from harness.mutations import CATALOGUE, Binlog, NotApplicable, mutate
from oracle.framing import MAGIC

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


def seed_windows(case_id: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> list[bytes]:
    """The windows of a case mutants are made from (at most 3 x max_bytes: what travels between
    executors instead of the case or its mutants); none when it is not a binlog at all."""
    try:
        return [w.data for w in windows(case_id, data, max_bytes, DEFAULT_WINDOWS) if w.data.startswith(MAGIC)]
    except ValueError:  # a large file without the magic
        return []


def mutants(case_id: str, data: bytes, n: int, seed: int,
            max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Mutant]:
    """Up to n mutants of one case: mutants_of() over its windows, k = 0 .. n-1."""
    if n > 0:
        yield from mutants_of(case_id, seed_windows(case_id, data, max_bytes), range(n), seed)


def mutants_of(case_id: str, windows_data: list[bytes], ks: Iterable[int], seed: int) -> Iterator[Mutant]:
    """Mutant k uses window k mod #windows and the first operator, in catalogue order from a
    seeded start, that has something to mutate there; a k for which no operator applies gives no
    mutant (so a case may give fewer than asked)."""
    if not windows_data:
        return
    seeds = [Binlog.parse(w) for w in windows_data]
    ops = list(CATALOGUE)
    for k in ks:
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
