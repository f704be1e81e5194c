"""Issue 7, the operators: deterministic, they change what they say, and their repairs hold
(event sizes chain to the end of the file, CRC32s verify, the oracle's framing walks the result)."""
from __future__ import annotations

import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.mutations import CATALOGUE, Binlog, Expect, NotApplicable, mutate
from harness.mutations.binlog import POS_AT, SIZE_AT
from oracle.checksum import event_crc32
from oracle.errors import BinlogError
from oracle.framing import MAGIC, walk
from tests.external import manifest

BINLOGS = [b for b in manifest() if b.path.stat().st_size <= 16 * 1024]
pytestmark = pytest.mark.skipif(not BINLOGS, reason="../shared/external-binlogs is not there")

# Operators that leave every event's size right (the others break framing on purpose).
BREAK_FRAMING = {"header_event_size", "truncate_inside_event", "magic_damaged"}
# Operators after which every CRC32 in the file is valid again; the others break a checksum or
# change which events carry one, on purpose.
BREAK_CRC = BREAK_FRAMING | {"crc_flip_bit", "crc_stale_after_body_change", "fde_checksum_alg",
                             "crc_present_declared_absent", "crc_declared_absent_present",
                             "crc_strip_consistently"}
# Edits in place: every differing byte is inside the mutated event (its field or its CRC).
IN_PLACE = {"header_timestamp", "header_server_id", "header_next_position", "header_flags_defined",
            "header_flags_undefined", "header_type_undefined_ignorable", "header_type_known",
            "crc_flip_bit", "crc_stale_after_body_change", "body_bit_flip", "body_interesting_value",
            "fde_checksum_alg", "crc_present_declared_absent", "query_db_len_past_end",
            "query_db_len_wrong", "query_status_vars_len_past_end", "query_status_vars_len_short"}
# Operators whose result the oracle's framing must walk to the end with checksums verified.
FRAME_AND_VERIFY = {"header_timestamp", "header_server_id", "header_next_position",
                    "header_flags_defined", "header_flags_undefined", "header_type_undefined_ignorable",
                    "duplicate_event", "truncate_at_boundary"} | {n for n in CATALOGUE if n.startswith("query_")}


@pytest.fixture(scope="module")
def seeds() -> list[tuple[str, bytes]]:
    return [(b.name, b.path.read_bytes()) for b in BINLOGS]


def mutations(name: str, seeds, per_seed: int = 2, with_rng_seed: bool = False):
    """(seed bytes, Mutation) for every seed the operator applies to, a few RNG seeds each."""
    out = []
    for seed_name, data in seeds:
        parsed = Binlog.parse(data)
        for k in range(per_seed):
            rng_seed = f"{seed_name}:{k}"
            try:
                m = mutate(name, parsed, rng_seed)
            except NotApplicable:
                continue
            out.append((data, rng_seed, m) if with_rng_seed else (data, m))
    return out


def framable(seeds):
    """The seeds whose event sizes chain to the end (not the ones truncated on purpose)."""
    return [(n, d) for n, d in seeds if not Binlog.parse(d).tail]


def size_chain(data: bytes) -> list[tuple[int, int]]:
    """(offset, size) of each event by event_size alone; asserts they end exactly at EOF. An
    independent walk: it reads no FDE, so it holds for v1 (13-byte) headers too."""
    out, pos = [], len(MAGIC)
    while pos < len(data):
        size = struct.unpack_from("<I", data, pos + SIZE_AT)[0]
        assert size >= 13 and pos + size <= len(data), f"event at {pos}: size {size} breaks the chain"
        out.append((pos, size))
        pos += size
    return out


def test_catalogue_covers_the_issue():
    areas = {info.area for info in CATALOGUE.values()}
    assert areas == {"header", "query", "checksum", "framing", "body"}
    for name in ("header_timestamp", "header_type_undefined", "header_type_other_flavor",
                 "header_server_id", "header_event_size", "header_next_position",
                 "header_flags_defined", "header_flags_undefined", "query_status_var_truncated",
                 "query_status_var_unknown", "query_status_vars_len_past_end", "query_db_len_past_end",
                 "crc_flip_bit", "fde_checksum_alg", "crc_present_declared_absent",
                 "crc_declared_absent_present", "truncate_inside_event", "truncate_at_boundary",
                 "duplicate_event", "swap_events", "rows_without_table_map", "table_map_extra_column"):
        assert name in CATALOGUE


@pytest.mark.parametrize("data", [b.path for b in BINLOGS], ids=[b.name for b in BINLOGS])
def test_parse_then_assemble_is_identity(data):
    raw = data.read_bytes()
    assert Binlog.parse(raw).assemble() == raw


@given(st.binary(max_size=400))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_identity_on_arbitrary_bytes(tail):
    """Whatever follows the magic (framable or not), parsing and reassembling changes nothing."""
    data = MAGIC + tail
    assert Binlog.parse(data).assemble() == data


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_operator_is_deterministic_and_changes_the_file(name, seeds):
    found = mutations(name, seeds, with_rng_seed=True)
    assert found, f"{name} applies to none of the external binlogs"
    descriptions = set()
    for data, rng_seed, m in found:
        again = mutate(name, data, rng_seed)
        assert again.data == m.data and again.description == m.description
        assert m.data != data, m.description
        assert m.operator == name and m.description and isinstance(m.expect, Expect)
        descriptions.add(m.description)
    assert len(descriptions) > 1, "different seeds and RNG seeds should not all give the same mutation"


@pytest.mark.parametrize("name", sorted(set(CATALOGUE) - BREAK_FRAMING))
def test_repairs_keep_the_size_chain(name, seeds):
    for _data, m in mutations(name, framable(seeds)):
        size_chain(m.data)


@pytest.mark.parametrize("name", sorted(set(CATALOGUE) - BREAK_CRC))
def test_repairs_keep_crc32_valid(name, seeds):
    for data, m in mutations(name, framable(seeds)):
        if not Binlog.parse(data).has_crc32():
            continue
        for pos, size in size_chain(m.data):
            event = m.data[pos:pos + size]
            stored = struct.unpack_from("<I", event, size - 4)[0]
            if event[4] == 15 and event[size - 5] != 1:
                continue  # a Format_description whose own algorithm byte is not CRC32
            assert event_crc32(event) == stored, f"{m.description}: event at {pos} has a stale CRC32"


@pytest.mark.parametrize("name", sorted(FRAME_AND_VERIFY))
def test_oracle_framing_walks_the_result(name, seeds):
    for data, m in mutations(name, seeds):
        seed_events = _walk_count(data)
        if seed_events is None:
            continue  # a seed broken on purpose
        got = _walk_count(m.data)
        assert got is not None, m.description
        if name == "duplicate_event":
            assert got == seed_events + 1
        elif name != "truncate_at_boundary":
            assert got == seed_events


def _walk_count(data: bytes) -> int | None:
    try:
        return sum(1 for _ in walk(data, verify_checksums=True))
    except BinlogError:
        return None


@pytest.mark.parametrize("name", sorted(IN_PLACE))
def test_in_place_edits_stay_inside_the_event(name, seeds):
    for data, m in mutations(name, framable(seeds)):
        assert len(m.data) == len(data)
        chain = size_chain(data)
        pos, size = chain[m.event_index]
        differing = [k for k in range(len(data)) if data[k] != m.data[k]]
        assert differing and all(pos <= k < pos + size for k in differing), m.description


def test_event_size_operator_writes_what_it_says(seeds):
    for data, m in mutations("header_event_size", framable(seeds)):
        pos, _ = size_chain(data)[m.event_index]
        stated = struct.unpack_from("<I", m.data, pos + SIZE_AT)[0]
        assert m.description.split("-> ")[1].startswith(str(stated))


def test_next_position_repair_follows_moved_events(seeds):
    """After an inserted event, every later event's next_position still points at its own end."""
    for data, m in mutations("duplicate_event", framable(seeds)):
        b = Binlog.parse(data)
        if not all(ev.pos_rule == "end" for ev in b.events) or not b.events[0].v4:
            continue
        for pos, size in size_chain(m.data):
            assert struct.unpack_from("<I", m.data, pos + POS_AT)[0] == pos + size


def test_same_seed_same_bytes_across_the_catalogue(seeds):
    name, data = seeds[0]
    parsed = Binlog.parse(data)
    for op in CATALOGUE:
        try:
            a = mutate(op, parsed, 1234)
        except NotApplicable:
            continue
        assert mutate(op, data, 1234).data == a.data
        # the parsed seed is not modified by applying an operator to it
        assert parsed.assemble() == data


def test_truncated_status_vars_are_rejected_by_the_oracle(seeds):
    """A spot check of one MUST_REJECT promise on real Query events (the engine checks them all)."""
    from harness.fuzz.outcome import oracle_parse
    checked = 0
    for data, m in mutations("query_status_var_truncated", seeds):
        if oracle_parse(data).accepted:
            assert not oracle_parse(m.data).accepted, m.description
            checked += 1
    assert checked > 10


def test_rng_drives_every_choice(seeds):
    """Two RNG seeds over the same file give different mutations for random-position operators."""
    _, data = max(seeds, key=lambda s: len(s[1]) if len(s[1]) < 20000 else 0)
    outs = {mutate("body_bit_flip", data, k).data for k in range(10)}
    assert len(outs) > 5
    rng = random.Random(5)
    assert CATALOGUE["body_bit_flip"].apply(Binlog.parse(data), rng).data != data


def test_declaring_crc32_over_hidden_crcs_is_not_a_promised_rejection(seeds):
    """Found by the atheris engine: an OFF file whose bodies still end in their CRC32s (itself a
    mutation) is valid again once CRC32 is declared, so the operator must not promise a rejection."""
    from harness.fuzz.outcome import oracle_parse
    name, data = next((n, d) for n, d in framable(seeds) if Binlog.parse(d).has_crc32())
    hidden = mutate("crc_present_declared_absent", data, 0).data
    again = mutate("crc_declared_absent_present", hidden, 0)
    assert again.expect is Expect.ANY_CLEAN
    assert again.data == data and oracle_parse(again.data).accepted
    stripped = mutate("crc_declared_absent_present", data, 0)
    assert stripped.expect is Expect.MUST_REJECT and not oracle_parse(stripped.data).accepted


def test_an_event_copy_has_every_field_and_its_own_bytes():
    """Ev.copy sets the fields one by one (for speed): a field added later must be copied too;
    assemble reuses an unedited event's bytes only while they are the seed's."""
    seed = Binlog.parse(BINLOGS[0].path.read_bytes())
    i = max(range(len(seed.events)), key=lambda j: len(seed.events[j].body))
    ev = seed.events[i]
    copy = ev.copy()
    assert copy == ev and copy.head is not ev.head and copy.body is not ev.body
    assert seed.copy().assemble() == seed.meta["data"]
    copy.body[0] ^= 1
    assert not copy.unchanged() and ev.unchanged()
    edited = seed.copy()
    edited.events[i] = copy
    assert edited.assemble() != seed.meta["data"]


def test_a_copy_is_copied_on_write_and_leaves_its_seed(seeds):
    """Binlog.copy shares the seed's events until one is indexed (operators edit what they index;
    pick predicates and iteration only read): after every operator, several RNG seeds each, every
    seed is still field for field what parsing it gives."""
    for _name, data in seeds[:25]:
        parsed = Binlog.parse(data)
        for op in CATALOGUE:
            for k in range(3):
                try:
                    mutate(op, parsed, k)
                except NotApplicable:
                    pass
        fresh = Binlog.parse(data)
        assert parsed.events == fresh.events
        assert all(ev.unchanged() for ev in parsed.events)
        assert parsed.copy().assemble() == data
    b = parsed.copy()
    assert b.peek(0) is parsed.events[0]
    assert b.events[0] is b.events[0] and b.events[0] is not parsed.events[0] and b.events[0] == parsed.events[0]
    assert b.peek(0) is b.events[0]


def test_a_moved_event_is_what_frame_makes_of_it(seeds):
    """Ev.moved (assemble's path for an unedited event at another offset) gives frame's bytes and
    leaves the event as frame leaves it, whatever its repairs allow."""
    checked = 0
    for _name, data in seeds[:25]:
        for ev in Binlog.parse(data).events:
            for start in (ev.offset + 7, max(4, ev.offset - 5), 2**32 - 3):
                for fix_pos, fix_crc in ((True, True), (False, True), (True, False)):
                    a, b = ev.copy(), ev.copy()
                    a.fix_pos = b.fix_pos = fix_pos
                    a.fix_crc = b.fix_crc = fix_crc
                    assert a.moved(start) == b.frame(start) and a == b
                    checked += 1
    assert checked > 1000
