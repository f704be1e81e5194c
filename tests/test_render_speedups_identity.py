"""oracle/_render.c (the C twin of render_rows.py's per-image renderer) against the Python.

The Python printers are the reference. For every image the C module either returns exactly the
bytes the Python renders, or None (and the Python then renders it): never different bytes, never
an exception for a value. Checked on values of every column style (hypothesis, both quoting
rules, well-shaped and ill-shaped values), on plain values it must handle itself, and on every
row event of the committed corpus and the external binlogs (whole output, C on vs pure Python).
The tests load the module themselves, so they run under BINLOG_ORACLE_PURE=1 too. Without the
built module they skip, which under CI=true is a failure (tests/conftest.py).
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from oracle import render_rows
from oracle.codecs.types import ColumnType as T
from oracle.decoder import decode_file
from oracle.errors import BinlogError
from oracle.render_rows import FAST_NONE, MARIADB_STYLES, STYLES, StopEvent, Table, column_style, quoted, \
    quoted_mariadb
from tests.conftest import IN_CI
from tests.external import manifest

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _load():
    try:
        return importlib.import_module("oracle._render")
    except ImportError:
        return None


_render = _load()


@pytest.fixture(autouse=True)
def _built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C module, and render_rows using it (whatever BINLOG_ORACLE_PURE says)."""
    if _render is None:
        message = "oracle._render is not built (python setup.py build_ext --inplace)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    monkeypatch.setattr(render_rows, "_render", _render)


def _table(types: list[int], metas: list[int], nullable: list[bool], mariadb: bool) -> Table:
    styles = [column_style(t, m, 3, mariadb) for t, m in zip(types, metas)]
    return Table(b"s", b"t", types, metas, nullable, styles, quoted_mariadb if mariadb else quoted)


def _pure(table: Table, present: str, values: list[Any], clause: bytes) -> bytes | str:
    """The Python's lines for one image, or the name of what it raised."""
    out: list[bytes] = []
    try:
        render_rows._image(out, table, table.columns(present), values, clause)
    except StopEvent:
        return "StopEvent"
    except Exception as e:  # the reference may raise on an ill-shaped value: C must then pass
        return type(e).__name__
    return b"".join(out)


def _compare(table: Table, present: str, values: list[Any], mariadb: bool) -> bytes | None:
    fast = _render.render_image(b"### SET\n", table.fast_columns(present), values, mariadb)
    if fast is not None:
        assert fast == _pure(table, present, values, b"### SET\n")
    return fast


# -- values of every shape the canonical model gives, and some it never does -----------------------

_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=12)
_ascii = st.text(alphabet="0123456789-:. '\\\n\tabcxyz\x00\x1f\x7f\"{}[]", max_size=14)
_ints = st.one_of(st.integers(-2**64 - 2, 2**64 + 2), st.integers(-300, 300), st.sampled_from(
    [0, 1, -1, 2**7, -2**7, 2**15, -2**15, 2**23, -2**23, 2**31, -2**31, 2**63 - 1, -2**63, 2**63, 2**64 - 1, 2**64]))
_dates = st.builds(lambda y, m, d: f"{y}-{m:02d}-{d:02d}", st.integers(0, 12000), st.integers(0, 120),
                   st.integers(0, 120))
_hex = st.one_of(st.binary(max_size=12).map(bytes.hex), st.binary(max_size=6).map(lambda b: b.hex().upper()),
                 _ascii)
_json_text = st.one_of(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c,
                                                                                          max_size=3),
                                    max_leaves=6).map(json.dumps), _text)


def _typed(type_name: str, value: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(lambda v: {"type": type_name, "value": v}, value)


VALUES = st.one_of(
    st.none(), _ints, st.booleans(), st.floats(), _text, _ascii,
    _typed("bytes", _hex), _typed("decimal", st.one_of(_ascii, _ints.map(str))),
    _typed("datetime", st.one_of(_ascii, _text)), _typed("timestamp", st.one_of(_ascii, _ints.map(str))),
    _typed("date", st.one_of(_dates, _ascii)), _typed("time", _ascii), _typed("json", _json_text),
    _typed("opaque", _hex), _typed("json_diff", st.just([])), _typed("float", st.floats().map(repr)),
    st.builds(lambda v: {"value": v}, _ints), st.just({}), st.just([1]),
)
TYPE_CODES = sorted(set(STYLES) | set(MARIADB_STYLES) | {T.VECTOR, T.GEOMETRY})
METAS = st.one_of(st.integers(0, 0xFFFF), st.sampled_from([0, 1, 2, 3, 4, 5, 8, 260, 0x0801, 0x0101, 0xF701,
                                                          0xF702, 0xF801, 0xF808, 0xF809, 0xFE10, 4612]))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TYPE_CODES), METAS, st.booleans(), VALUES), min_size=1, max_size=5),
       st.booleans())
def test_c_equals_python_or_passes_on_any_value(columns, mariadb):
    types, metas, nullable, values = (list(x) for x in zip(*columns))
    _compare(_table(types, metas, nullable, mariadb), "1" * len(types), values, mariadb)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TYPE_CODES), METAS, VALUES), min_size=1, max_size=6),
       st.lists(st.booleans(), min_size=6, max_size=6), st.booleans())
def test_c_equals_python_on_partial_images(columns, shown, mariadb):
    """Images that leave columns out (the present bitmap), one value per present column."""
    types, metas, values = (list(x) for x in zip(*columns))
    present = "".join("1" if s else "0" for s in shown[:len(types)])
    table = _table(types, metas, [True] * len(types), mariadb)
    _compare(table, present, [v for v, bit in zip(values, present) if bit == "1"], mariadb)


def test_wrong_value_count_passes_to_python():
    table = _table([T.LONG, T.LONG], [0, 0], [False, False], False)
    assert _render.render_image(b"### SET\n", table.fast_columns("11"), [1], False) is None
    assert _pure(table, "11", [1], b"") == "ValueError"


# -- plain values: the C must handle these itself, and agree ---------------------------------------

PLAIN: list[tuple[int, int, Any]] = [
    (T.TINY, 0, -1), (T.SHORT, 0, 40000), (T.INT24, 0, -8388608), (T.LONG, 0, -2**31), (T.LONG, 0, 2**32 - 1),
    (T.LONGLONG, 0, -5000000000), (T.LONGLONG, 0, 2**64 - 1), (T.LONGLONG, 0, 2**63),
    (T.FLOAT, 4, 0.1429000049829483), (T.FLOAT, 4, float("-inf")), (T.DOUBLE, 8, 3.14159265358979),
    (T.DOUBLE, 8, float("nan")), (T.DOUBLE, 8, -0.0), (T.DOUBLE, 8, 1e300),
    (T.NEWDECIMAL, 4612, {"type": "decimal", "value": "-50000.0000"}),
    (T.DATETIME2, 6, {"type": "datetime", "value": "-2001-01-01 00:00:00.000000"}),
    (T.TIMESTAMP2, 3, {"type": "timestamp", "value": "1000002928.123"}),
    (T.DATE, 0, {"type": "date", "value": "1990-01-01"}), (T.NEWDATE, 0, {"type": "date", "value": "0-0-0"}),
    (T.TIME2, 2, {"type": "time", "value": "-11:59:59.75"}), (T.YEAR, 0, 0), (T.YEAR, 0, 2155),
    (T.VARCHAR, 256, "it's a \\ \n\t\x00\x1b \u00e9\u20ac"), (T.STRING, 65088, "d"),
    (T.BLOB, 2, {"type": "bytes", "value": "00ff27275c0a0d08090c1f7f"}), (T.STRING, 63233, 1),
    (T.STRING, 63489, 0x0102), (T.STRING, 0xF808, 2**64 - 1), (T.STRING, 0xF808, -1),
    (T.JSON, 4, {"type": "json", "value": '{"a": [true, null, "x\'\\\\"], "b": 0}'}),
    (T.BIT, 260, 1), (T.BIT, 0x0800, 2**64 - 1), (T.BIT, 0x0001, 1),
]


@pytest.mark.parametrize("mariadb", [False, True])
@pytest.mark.parametrize("type_code,meta,value", PLAIN)
def test_c_handles_plain_values_and_agrees(type_code, meta, value, mariadb):
    table = _table([type_code, type_code], [meta, meta], [True, True], mariadb)
    assert table.styles[0].fast[0] != FAST_NONE
    assert _compare(table, "11", [value, None], mariadb) is not None


# -- every row event of the corpus and of the external binlogs -------------------------------------

def _binlogs() -> list[Path]:
    corpus = [case.parent / b["name"] for case in sorted(CORPUS.glob("*/*/case.json"))
              for b in json.loads(case.read_text())["binlogs"]]
    return corpus + [b.path for b in manifest()]


def _events(path: Path) -> list[dict[str, Any]]:
    events = []
    try:
        for e in decode_file(path):
            events.append(e.to_json())
    except BinlogError:
        pass  # the broken files: render what came before the error
    return events


@pytest.fixture(scope="module")
def every_binlog() -> list[tuple[Path, list[dict[str, Any]]]]:
    paths = [p for p in _binlogs() if p.exists()]
    if not paths:
        pytest.skip("no corpus binlogs and no external binlogs")
    return [(p, _events(p)) for p in paths]


def _counting(real, handled: dict[str, int], name: str):
    def counting(*args):
        out = real(*args)
        handled[name] += out is not None
        return out
    return counting


def test_c_equals_python_on_every_row_event_of_the_corpus_and_external_binlogs(every_binlog, monkeypatch):
    handled = {"render_rows": 0, "render_image": 0}
    for name in handled:
        monkeypatch.setattr(_render, name, _counting(getattr(_render, name), handled, name))
    for path, events in every_binlog:
        render_rows._render = _render
        fast = b"".join(render_rows.render_bytes(events))
        render_rows._render = None
        pure = b"".join(render_rows.render_bytes(events))
        assert fast == pure, path
    # the C rendered most events itself (whole, or image by image), it did not pass them all back
    assert handled["render_rows"] > 300 and handled["render_image"] > 10, handled


# -- whole events: rows of any shape -----------------------------------------------------------------

_IMAGE = st.one_of(st.builds(lambda vs: {"null_bitmap": "", "values": vs}, st.lists(VALUES, max_size=3)),
                   st.just({}), st.just({"values": (1, 2)}), st.just([1]), st.none())
_ROW = st.one_of(_IMAGE, st.builds(lambda b, a: {"before_image": b, "after_image": a}, _IMAGE, _IMAGE),
                 st.just({"before_image": {"values": [1, 2]}}))


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from([30, 31, 32]), st.lists(st.tuples(st.sampled_from(TYPE_CODES), METAS), min_size=2, max_size=2),
       st.lists(_ROW, max_size=4), st.booleans(), st.sampled_from(["11", "10", "01"]))
def test_c_equals_python_on_whole_events_with_rows_of_any_shape(code, columns, rows, mariadb, present):
    types, metas = (list(x) for x in zip(*columns))
    table = _table(types, metas, [True, True], mariadb)
    body = {"table_id": 1, "rows": rows, "columns_before_image": present, "columns_after_image": present}
    outcomes = []
    for module in (_render, None):
        render_rows._render = module
        try:
            outcomes.append(render_rows.render_rows_event(code, body, table))
        except Exception as e:  # the reference may raise on an ill-shaped row: C must raise alike
            outcomes.append(type(e).__name__)
    fast, pure = outcomes
    assert (b"".join(fast) if isinstance(fast, list) else fast) == (b"".join(pure) if isinstance(pure, list) else pure)
