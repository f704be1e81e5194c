"""The bodies kept by oracle/memo.py (Table_map, Query) decode exactly as without the memo, and
each event gets its own dicts; Binlog.event_at is parse().events[i]."""
from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from harness.fuzz.seeds import find_binlogs
from harness.mutations import Binlog
from oracle.decoder import decode_bytes
from oracle.errors import BinlogError
from oracle.events import query, table_map
from oracle.memo import BodyMemo

ROOT = Path(__file__).resolve().parents[1]
FILES = find_binlogs([ROOT / "corpus"])
# One binlog in seven, chosen by its path (not its place in the list), so that adding a case to the
# corpus adds at most its own test and leaves the others' ids alone (tests/collected-ids.txt).
SAMPLE = [p for p in FILES if zlib.crc32(str(p.relative_to(ROOT)).encode()) % 7 == 0]


def _case_id(path: Path) -> str:
    return str(path.relative_to(ROOT / "corpus"))


def _lines(data: bytes) -> list[str]:
    out = []
    try:
        for event in decode_bytes(data):
            out.append(json.dumps(event.to_json(), sort_keys=True))
    except BinlogError as e:
        out.append(f"{e.kind}@{e.offset}")
    return out


def _cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo that keeps nothing: every body is decoded afresh."""
    for module, name in ((table_map, "_PARSED"), (query, "_DECODED")):
        monkeypatch.setattr(module, name, BodyMemo(max_entries=0, max_body=-1))


def test_memo_keeps_a_value_once_and_is_bounded() -> None:
    made = []
    memo = BodyMemo(max_entries=2, max_body=4)
    assert memo.get(1, b"ab", lambda: made.append(1) or "x") == "x"
    assert memo.get(1, b"ab", lambda: made.append(2) or "y") == "x"
    assert memo.get(2, b"ab", lambda: made.append(3) or "z") == "z"  # other fields: another key
    assert memo.get(1, b"abcde", lambda: made.append(4) or "w") == "w"  # too large: not kept
    assert memo.get(1, b"abcde", lambda: made.append(5) or "v") == "v"
    memo.get(3, b"c", lambda: "c")  # full: starts again empty
    assert memo.get(1, b"ab", lambda: made.append(6) or "u") == "u"
    assert made == [1, 3, 4, 5, 6]
    by_bytes = BodyMemo(max_entries=100, max_body=4, max_bytes=6)
    by_bytes.get(1, b"abcd", lambda: "a")
    by_bytes.get(2, b"abcd", lambda: "b")  # 8 bytes > 6: starts again empty, then keeps this one
    assert by_bytes.get(1, b"abcd", lambda: "again") == "again"


def test_corpus_decodes_the_same_with_and_without_the_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(FILES) > 100
    warm = {}
    for path in FILES:
        data = path.read_bytes()
        _lines(data)  # fill the memo
        warm[path] = _lines(data)
    _cold(monkeypatch)
    for path in FILES:
        assert _lines(path.read_bytes()) == warm[path], path


def _queries(data: bytes) -> list[dict]:
    out = []
    try:
        out.extend(e.body for e in decode_bytes(data) if e.type_code == 2)
    except BinlogError:
        pass
    return out


def test_each_event_gets_its_own_query_body() -> None:
    data = next(d for d in (p.read_bytes() for p in FILES) if _queries(d))
    first = _queries(data)[0]
    first["status_vars"]["changed"] = True
    first["query"] = "changed"
    again = _queries(data)[0]
    assert "changed" not in again["status_vars"] and again["query"] != "changed"


@pytest.mark.parametrize("path", SAMPLE, ids=_case_id)
def test_event_at_is_the_parsed_event(path: Path) -> None:
    data = path.read_bytes()
    events = Binlog.parse(data).events
    for i in sorted({0, 1, len(events) // 2, max(len(events) - 1, 0), len(events), len(events) + 3}):
        got = Binlog.event_at(data, i)
        if i >= len(events):
            assert got is None
        else:
            want = events[i]
            assert (bytes(got.head), bytes(got.body), got.crc, got.offset, got.pos_rule, got.original) == \
                (bytes(want.head), bytes(want.body), want.crc, want.offset, want.pos_rule, want.original)
    assert Binlog.event_at(b"not a binlog", 0) is None


@pytest.mark.parametrize("path", SAMPLE, ids=_case_id)
def test_event_at_from_a_seed_is_the_parsed_event_of_its_mutants(path: Path) -> None:
    """event_at(mutant, i, seed) starts its walk where mutant stops sharing seed's bytes: it
    must give what parsing the mutant gives, format included, for every operator's mutants."""
    import random

    from harness.mutations import CATALOGUE, NotApplicable
    seed = Binlog.parse(path.read_bytes())
    checked = 0
    for name, info in CATALOGUE.items():
        for k in range(3):
            try:
                m = info.apply(seed, random.Random(f"{name}:{k}"))
            except NotApplicable:
                continue
            events = Binlog.parse(m.data).events if m.data.startswith(b"\xfebin") else []
            for i in {0, 1, m.event_index or 0, (m.event_index or 0) + 1, max(len(seed.events) - 1, 0)}:
                got, want = Binlog.event_at(m.data, i, seed), Binlog.event_at(m.data, i)
                assert (got is None) == (want is None) == (i >= len(events))
                if got is not None:
                    assert got == want == events[i]
                    checked += 1
    # a tiny seed (a minimised fuzz reproducer) has few events; one whose first event is already
    # broken has none, and then every mutant's event_at must have been None (asserted above)
    assert checked > min(50, 5 * len(seed.events)) or not seed.events
