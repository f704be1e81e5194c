"""`python -m oracle decode` writes each event with orjson where its text is the standard
library's, and with json where it is not (oracle/jsonlines.py). The two routes must give the
same bytes: on generated values (floats of every magnitude, big integers,
control characters, bytes kept as surrogates), and on every event of the committed corpus and the external binlogs."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from harness.corpus import NOT_BINLOG_SUFFIXES  # what is never a binlog: READMEs, reproducer SQL, ...
from oracle.decoder import decode_file
from oracle.errors import BinlogError
from oracle.jsonlines import json_line, json_line_stdlib
from tests.external import manifest

pytest.importorskip("orjson")  # without it json_line is json_line_stdlib itself

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

# What the oracle's strings hold: text, and bytes decoded with surrogateescape (a JSON key or
# path that is not UTF-8).
_text = st.text() | st.binary().map(lambda b: b.decode("utf-8", "surrogateescape"))
_scalars = (st.none() | st.booleans() | st.integers() | st.integers(-2**64, 2**64)
            | st.floats(allow_nan=False, allow_infinity=False) | _text)
_values = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4)
                       | st.dictionaries(_text, kids, max_size=4), max_leaves=20)


@settings(max_examples=1000, deadline=None)
@given(_values)
def test_orjson_route_writes_the_stdlib_text(value):
    assert json_line(value) == json_line_stdlib(value)


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_double_prints_as_python_prints_it(x):
    for value in ({"v": x}, [x, -x], {"a": [1, x]}):
        assert json_line(value) == json_line_stdlib(value)


@pytest.mark.parametrize("x", [1e16, 1e-5, 5e-324, 1.7976931348623157e308, 1e-4, 0.00012, 1e15,
                               -0.0, 123456789.125])
def test_edges_of_the_exponent_forms(x):
    assert json_line({"v": x}) == json_line_stdlib({"v": x})
    assert math.isfinite(x)


def _binlogs() -> list[Path]:
    files = [p for p in CORPUS.glob("*/*/*") if p.is_file() and not p.name.lower().endswith(NOT_BINLOG_SUFFIXES)]
    files += [b.path for b in manifest() if b.path.exists()]
    return sorted(files)


def test_both_routes_agree_on_every_event_of_the_corpus_and_external_binlogs():
    files = _binlogs()
    assert len(files) > 150
    events = 0
    for path in files:
        try:
            for event in decode_file(path):
                value = event.to_json()
                assert json_line(value) == json_line_stdlib(value), (path, event.position)
                events += 1
        except BinlogError:
            pass  # a damaged external binlog: the events before the error were compared
    assert events > 10_000


ROOT = Path(__file__).resolve().parents[1]


def _oracle_decode(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oracle", "decode", str(path)], cwd=ROOT,
                          capture_output=True, timeout=300)


def test_the_command_prints_the_recorded_lines():
    """`python -m oracle decode` prints what the corpus records (casefile.oracle_lines: json)."""
    from generators.casefile import oracle_lines
    picked = [p for p in _binlogs() if p.is_relative_to(CORPUS)][::40]
    assert len(picked) >= 4
    for path in picked:
        proc = _oracle_decode(path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.decode("utf-8").splitlines() == oracle_lines(path), path


def test_the_command_stops_at_a_bad_byte_with_one_error_line(tmp_path):
    from generators.casefile import oracle_lines
    source = next(p for p in _binlogs() if p.is_relative_to(CORPUS) and p.stat().st_size > 2000)
    cut = tmp_path / "cut.binlog"
    cut.write_bytes(source.read_bytes()[:1500])
    proc = _oracle_decode(cut)
    expected = oracle_lines(cut)
    assert proc.returncode == 1
    assert proc.stdout.decode("utf-8").splitlines() == expected[:-1]  # the last is the error
    assert proc.stderr.decode().count("\n") == 1 and proc.stderr.startswith(b"error: ")


def _compiled_check():
    from oracle.speedups import accelerator
    module = accelerator("_jsonlines")
    if module is None:
        pytest.skip("oracle._jsonlines is not built (pip install -e . builds it)")
    return module.may_differ


@settings(max_examples=2000, deadline=None)
@given(_values | st.lists(st.floats(allow_nan=False, allow_infinity=False) | _text, max_size=6))
def test_the_compiled_check_clears_only_lines_orjson_writes_as_the_stdlib_does(value):
    """oracle/_jsonlines.c may_differ: where it says no, orjson's text is the stdlib's. (Where it
    says yes the stdlib writes the line, which is always right; it says yes to any exponent,
    also to the 1e+16 that newer orjson releases print as Python does, where the pure
    expressions say no: both answers give the same bytes.)"""
    import orjson
    may_differ = _compiled_check()
    try:
        out = orjson.dumps(value)
    except orjson.JSONEncodeError:
        return
    if not may_differ(out):
        assert out + b"\n" == json_line_stdlib(value)


@pytest.mark.parametrize("text,expected", [
    (b'{"v":1e16}', True), (b'[1.5e-7,2]', True), (b'{"v":0.00001}', True), (b'[-0.00001]', True),
    (b'{"v":0.0001}', False), (b'[1e+16]', True), (b'{"e":"1e16"}', False), (b'["\\\\",1e5]', True),
    (b'["\\"1e5"]', False), (b'{"hex":"7de25656de2fdb7d","n":12}', False), (b'', False)])
def test_the_compiled_check_reads_number_tokens_outside_strings(text, expected):
    assert _compiled_check()(text) is expected
