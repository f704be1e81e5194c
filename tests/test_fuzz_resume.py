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


def _whole(o):
    return o.events, o.error_kind, o.error_offset, o.error_message


@pytest.mark.parametrize("operator", list(CATALOGUE))
def test_mutants_of_another_length_rejoin_shifted_as_from_the_start(decoded, operator):
    """A mutant of another length rejoins its seed's events moved (SeedDecode.shifted): what it
    gives, error message included, is what a decode from the start gives, on every operator's
    mutants; and the mutants with a shifted tail are decoded that way."""
    for seed, d, m in _mutants(decoded, operator, 120):
        shift, full = d.shifted(m.data), oracle_parse(m.data)
        assert _whole(d.parse(m.data)) == _whole(full), (seed.name, m.description)
        if shift is not None and full.accepted:  # the moved events are the full decode's last ones
            tail = shift.events(d.outcome.events, shift.first)
            assert tail == full.events[len(full.events) - len(tail):], (seed.name, m.description)


def test_shifted_rejoin_is_taken(decoded):
    """Most mutants that change the length of a seed that decodes have the seed's last events moved,
    and those events, reused, are what a decode from the start gives (a wrong position, log_pos or
    stored CRC in Shifted.events would fail here)."""
    other_length = shifted = 0
    for operator in ("drop_event", "duplicate_event", "body_insert_bytes", "crc_strip_consistently"):
        for _, d, m in _mutants(decoded, operator, 40):
            if len(m.data) == len(d.data) or not d.outcome.accepted:
                continue
            other_length += 1
            shift = d.shifted(m.data)
            if shift is None:
                continue
            shifted += 1
            full = oracle_parse(m.data)
            tail = shift.events(d.outcome.events, shift.first)
            if full.accepted:
                assert tail and tail == full.events[len(full.events) - len(tail):]
            assert all(a["position"] != b["position"] for a, b in zip(tail, d.outcome.events[shift.first:]))
    assert shifted > 0.5 * other_length, (shifted, other_length)
