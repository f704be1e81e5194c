"""Operators' preconditions: an expectation is judged only while the kind of event it is about is
still there in the bytes run. The two false findings of a 10-minute atheris session, rebuilt:
header_next_position over an event earlier byte mutations had made a HEARTBEAT (whose log_pos the
oracle rightly checks), and query_status_var_truncated under a change that made its Query an
ignorable unknown type (skipped, so the damage is never read). Then two more kinds that stacking
operators and byte mutations give: damage appended after a block readers stop reading early,
damage that undoes the seed's own (over a seed rejected inside the mutated event), and a dropped
Table_map that an earlier mutation had written twice."""
from __future__ import annotations

import dataclasses
import hashlib
import signal

import pytest

from harness.fuzz.outcome import oracle_parse, violation
from harness.mutations import CATALOGUE, Binlog, Expect, NotApplicable, expectation_on, mutate
from harness.mutations.header import IGNORABLE, UNDEFINED_CODES
from harness.mutations.query import layout
from oracle.event_types import EventType as T
from tests.external import manifest

SEEDS = {b.name: b.path.read_bytes() for b in manifest() if b.path.stat().st_size <= 16 * 1024}
pytestmark = pytest.mark.skipif(not SEEDS, reason="../shared/external-binlogs is not there")
NO_CRC = "test-data__binlogs__bug16266.000001"  # MySQL 5.x, no checksums: byte edits need no repair
CRC32 = "test-data__binlogs__binlog_transaction_with_GTID.000001"


def _first(name: str, base: bytes, want) -> object:
    """The first of RNG seeds 0..499 whose mutation `want` likes (deterministic)."""
    parsed = Binlog.parse(base)
    for k in range(500):
        try:
            m = mutate(name, parsed, k)
        except NotApplicable:
            continue
        if want(m):
            return m
    raise AssertionError(f"no RNG seed gives the {name} mutation wanted")


def _as_declared(m, expect: Expect):
    """m judged as it would be without the precondition (what the old engines did)."""
    return dataclasses.replace(m, expect=expect, unmet=None)


def _heartbeat_base() -> tuple[bytes, int]:
    """A seed whose event after the Format_description earlier mutations made a HEARTBEAT v1
    (CRC32 repaired, as the libfuzzer_body path repairs it); the oracle accepts it."""
    b = Binlog.parse(SEEDS[CRC32])
    i = b.fde_index() + 1
    b.events[i].head[4] = T.HEARTBEAT_LOG_EVENT
    b.events[i].body[:] = b"master-bin.000001"
    data = b.assemble()
    assert oracle_parse(data).accepted
    return data, i


def test_next_position_over_a_heartbeat_is_not_a_promise():
    base, i = _heartbeat_base()
    m = _first("header_next_position", base, lambda m: m.event_index == i and m.description.endswith("-> 0"))
    seed, got = oracle_parse(base), oracle_parse(m.data)
    assert got.error_kind == "BadEventBody"  # the oracle rightly rejects a heartbeat log_pos of 0
    assert violation(_as_declared(m, Expect.MUST_ACCEPT_WITH_CHANGE), seed, got) is not None
    assert m.expect is Expect.ANY_CLEAN and m.unmet == "log_pos_unread"
    assert violation(m, seed, got) is None and violation(m, seed, got, m.data) is None
    assert m.note()["precondition_unmet"] == "log_pos_unread"
    # over an ordinary event of the same file, the promise stands
    ordinary = _first("header_next_position", base, lambda m: m.event_index != i)
    assert ordinary.expect is Expect.MUST_ACCEPT_WITH_CHANGE and ordinary.unmet is None


def test_truncated_status_var_in_an_event_retyped_afterwards_is_not_a_promise():
    seed_data = SEEDS[NO_CRC]
    m = _first("query_status_var_truncated", seed_data, lambda m: True)
    assert m.expect is Expect.MUST_REJECT
    final = bytearray(m.data)
    at = len(b"\xfebin") + sum(ev.size() for ev in Binlog.parse(m.data).events[:m.event_index])
    final[at + 4] = UNDEFINED_CODES[0]  # byte mutations on top: an undefined type code ...
    final[at + 17] |= IGNORABLE  # ... flagged ignorable
    final = bytes(final)
    seed, got = oracle_parse(seed_data), oracle_parse(final)
    assert got.accepted and got.events[m.event_index]["body"]["ignored"]
    assert violation(m, seed, got) is not None  # judged as if m.data had been run: a false finding
    assert expectation_on(m, final) is Expect.ANY_CLEAN
    assert violation(m, seed, got, final) is None
    # the same change on top of a Query that stays a Query keeps the promise
    assert expectation_on(m, m.data) is Expect.MUST_REJECT
    assert violation(m, seed, oracle_parse(m.data), m.data) is None


def _query_ending_in(status: bytes) -> tuple[bytes, int]:
    """The no-CRC seed with `status` appended to its first Query's status block (what earlier
    mutations may leave there)."""
    b = Binlog.parse(SEEDS[NO_CRC])
    i = b.indices(T.QUERY_EVENT)[0]
    ev, lay = b.events[i], layout(b.events[i])
    ev.body[lay.status_end:lay.status_end] = status
    ev.body[11:13] = (lay.status_len + len(status)).to_bytes(2, "little")  # status_vars_len
    return b.assemble(), i


@pytest.mark.parametrize("status, seed_accepted", [
    (b"\x0f\x01\x02", True),  # Q_COMMIT_TS2: the servers stop reading the block there
    (b"\x13", False),  # Q_SQL_REQUIRE_PRIMARY_KEY without its byte: an appended code byte completes it
], ids=["stop-code", "cut-value"])
def test_truncated_status_var_after_a_block_not_read_to_its_end_is_not_a_promise(status, seed_accepted):
    """Found by stacking operators as a corpus evolves (query_status_var_unknown, then this one)."""
    base, i = _query_ending_in(status)
    assert oracle_parse(base).accepted is seed_accepted
    m = _first("query_status_var_truncated", base,
               lambda m: m.event_index == i and oracle_parse(m.data).accepted)
    seed, got = oracle_parse(SEEDS[NO_CRC]), oracle_parse(m.data)
    assert violation(_as_declared(m, Expect.MUST_REJECT), seed, got) is not None
    assert m.expect is Expect.ANY_CLEAN
    intact = mutate("query_status_var_truncated", SEEDS[NO_CRC], 0)
    assert intact.expect is Expect.MUST_REJECT and not oracle_parse(intact.data).accepted


def test_damage_that_undoes_the_seeds_own_is_not_a_promised_rejection():
    """Over a seed rejected inside the mutated event, MUST_REJECT is not judged: flipping bits of
    a CRC32 that earlier mutations had flipped may restore it."""
    seed_data = SEEDS[CRC32]
    b = Binlog.parse(seed_data)
    i = len(b.events) - 1
    crc = bytearray(b.events[i].crc)
    crc[0] ^= 1
    b.events[i].crc, b.events[i].fix_crc = bytes(crc), False
    broken = b.assemble()
    seed = oracle_parse(broken)
    assert seed.error_kind == "ChecksumMismatch" and len(seed.events) == i
    m = _first("crc_flip_bit", broken, lambda m: m.data == seed_data)
    got = oracle_parse(m.data)
    assert m.expect is Expect.MUST_REJECT and got.accepted
    assert violation(m, oracle_parse(seed_data), got) is not None  # over an intact seed: a break
    assert violation(m, seed, got) is None


def test_dropping_one_of_two_copies_of_a_table_map_is_not_a_promised_rejection():
    """Found by the atheris engine: over a Table_map written twice (duplicate_event), dropping the
    first leaves the Rows mapped by the second."""
    seed_data = SEEDS["test-data__binlogs__mariadb-bin.000001"]
    b = Binlog.parse(seed_data)
    i = b.indices(T.TABLE_MAP_EVENT)[0]
    b.events.insert(i + 1, b.events[i].copy())
    twice = b.assemble()
    m = _first("rows_without_table_map", twice, lambda m: m.event_index == i)
    seed, got = oracle_parse(twice), oracle_parse(m.data)
    assert seed.accepted and got.accepted and m.expect is Expect.ANY_CLEAN
    assert violation(_as_declared(m, Expect.MUST_REJECT), seed, got) is not None
    once = _first("rows_without_table_map", seed_data, lambda m: m.event_index == i)
    assert once.expect is Expect.MUST_REJECT and not oracle_parse(once.data).accepted


@pytest.mark.parametrize("name", [n for n, info in CATALOGUE.items() if info.requires])
def test_preconditions_hold_on_every_operator_output_over_real_seeds(name):
    """A precondition too strict would silently turn promises off: over real files, none fails."""
    checked = 0
    for seed_name, data in SEEDS.items():
        parsed = Binlog.parse(data)
        for k in range(3):
            try:
                m = mutate(name, parsed, f"{seed_name}:{k}")
            except NotApplicable:
                continue
            assert m.unmet is None, (seed_name, m.description)
            checked += 1
    assert checked


def test_atheris_session_judges_the_heartbeat_case_clean(tmp_path):
    """The atheris engine's judge (Session.test_one) on the rebuilt false finding: no finding."""
    from harness.fuzz.atheris_engine import Session, _on_timer
    base, i = _heartbeat_base()
    m = _first("header_next_position", base, lambda m: m.event_index == i and m.description.endswith("-> 0"))
    config = {"target": "harness.fuzz.outcome:oracle_parse", "timeout": 5.0, "out_dir": str(tmp_path),
              "keep_per_signature": 1, "operators": ["header_next_position"]}
    old = signal.signal(signal.SIGPROF, _on_timer)
    try:
        for judged in (m, _as_declared(m, Expect.MUST_ACCEPT_WITH_CHANGE)):
            session = Session(config)
            session.last = (hashlib.sha1(m.data).hexdigest(), judged.note(), judged, base)
            session.test_one(m.data)
            found = sum(session.log.counts.values())
            assert found == (0 if judged is m else 1), session.log.summary()
    finally:
        signal.signal(signal.SIGPROF, old)
