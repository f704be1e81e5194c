"""Issue 14: the mutate engine decodes a mutant only where it differs from its seed
(harness/fuzz/resume.py over oracle.decoder's checkpoints). That must give exactly what a decode
from the start gives: the same events, error kind and offset, on every seed and on mutants of
every operator."""
from __future__ import annotations

import random

import pytest

from harness.fuzz.outcome import oracle_parse
from harness.fuzz.resume import SeedDecode
from harness.fuzz.seeds import load_seeds
from harness.mutations import CATALOGUE, Binlog, NotApplicable
from tests.external import ROOT, manifest



def _key(o):
    return o.events, o.error_kind, o.error_offset


@pytest.fixture(scope="module")
def decoded():
    from harness.fuzz.seeds import default_seed_dirs
    dirs = [d for d in default_seed_dirs() if d.is_dir()] + ([ROOT] if manifest() else [])
    seeds = load_seeds(dirs)
    assert seeds
    return [(s, Binlog.parse(s.data), SeedDecode.of(s.data)) for s in seeds]


def test_seed_decode_is_the_decode_from_the_start(decoded):
    for seed, _, d in decoded:
        assert _key(d.outcome) == _key(oracle_parse(seed.data)), seed.name
        assert _key(d.parse(seed.data)) == _key(d.outcome), seed.name
        assert len(d.checkpoints) >= len(d.outcome.events) - 1


def _mutants(decoded, operator, n=60):
    rng = random.Random(f"resume:{operator}")
    for _ in range(n):
        seed, parsed, d = rng.choice(decoded)
        try:
            yield seed, d, CATALOGUE[operator].apply(parsed, random.Random(rng.random()))
        except NotApplicable:
            continue


@pytest.mark.parametrize("operator", list(CATALOGUE))
def test_mutants_decode_as_from_the_start(decoded, operator):
    ran = 0
    for seed, d, m in _mutants(decoded, operator):
        ran += 1
        assert _key(d.parse(m.data)) == _key(oracle_parse(m.data)), (seed.name, m.description)
    assert ran


def test_the_shortcut_is_taken(decoded):
    """Most mutants resume after a shared prefix, and those of the same length as their seed
    mostly stop early, back in step with it (else the engine is no faster than before)."""
    resumed = rejoined = same_length = total = 0
    for operator in CATALOGUE:
        for _, d, m in _mutants(decoded, operator, 10):
            total += 1
            resumed += d.resume_point(m.data) is not None
            same_length += len(m.data) == len(d.data)
            rejoined += bool(d.rejoin_points(m.data))
    assert resumed > 0.6 * total, (resumed, total)
    assert rejoined > 0.5 * same_length, (rejoined, same_length)
