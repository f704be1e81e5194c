"""The C twin of canonical_at (oracle/codecs/_jsonb.c) against the Python reference.

The twin returns the Python's dict exactly (same keys in the same order, same types) or None,
after which jsonb.canonical_at runs the Python. So: wherever the twin answers, its answer equals
pure_canonical_at's; on every document the Python reads as "json" the twin answers (it does not
lazily hand valid documents back); and through canonical_at the outcome (value, or error type,
offset and message) is the Python's, on generated, damaged, cut and random documents, in every
buffer type, and on every JSON value of the corpus and the external binlogs. Under CI=true a
missing build fails (tests/conftest.py turns the skip into a failure).
"""
from __future__ import annotations

import json
import mmap
import struct
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.codecs import jsonvalue
from oracle.codecs.jsonb import canonical_at, pure_canonical_at
from oracle.decoder import decode_file
from oracle.encode.values import encode_decimal
from oracle.errors import BinlogError
from tests.external import manifest
from tests.test_codec_speedups import _damage
from tests.test_jsonb import VALID, encode, json_docs

try:  # the module itself, even under BINLOG_ORACLE_PURE=1 (which only keeps canonical_at from it)
    from oracle.codecs._jsonb import canonical as twin
except ImportError:
    twin = None
pytestmark = pytest.mark.skipif(twin is None, reason="oracle.codecs._jsonb is not built "
                                "(python setup.py build_ext --inplace)")
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except BinlogError as e:
        return (type(e).__name__, e.offset, e.message)


def _exact(v):
    """v with every value's type made visible (True == 1 and 1 == 1.0 must not pass), key order kept."""
    if isinstance(v, dict):
        return ("dict", [(k, _exact(x)) for k, x in v.items()])
    if isinstance(v, list):
        return ("list", [_exact(x) for x in v])
    return (type(v).__name__, v)


def _check(data: bytes, pad: int = 3, origin: int = 70) -> dict | None:
    """Twin vs reference on data inside a bigger buffer; returns the twin's answer."""
    buf = b"\xee" * pad + data + b"\xee" * pad
    start, end = pad, pad + len(data)
    answer = twin(buf, start, end)
    pure = _outcome(pure_canonical_at, buf, start, end, origin)
    if answer is not None:
        assert pure[0] == "ok" and _exact(answer) == _exact(pure[1])
    elif pure[0] == "ok":
        assert pure[1]["type"] != "json", "the twin handed back a document the Python reads as json"
    assert _outcome(canonical_at, buf, start, end, origin) == pure
    return answer


# -- generated documents --------------------------------------------------------------------------

def _decimal_payload(precision: int, scale: int, digits: int, negative: bool) -> bytes:
    text = str(digits % 10 ** precision).rjust(precision, "0")
    text = ("-" if negative else "") + text[:precision - scale] + ("." + text[precision - scale:] if scale else "")
    return bytes([precision, scale]) + encode_decimal(text, precision, scale)


decimals = st.integers(1, 65).flatmap(lambda p: st.builds(
    _decimal_payload, st.just(p), st.integers(0, min(p, 30)), st.integers(0, 10 ** 65), st.booleans()))
opaques = st.one_of(
    st.tuples(st.just(246), decimals),
    st.tuples(st.sampled_from([7, 10, 11, 12]), st.binary(min_size=8, max_size=10)),
    st.tuples(st.sampled_from([7, 10, 11, 12]), st.sampled_from([struct.pack("<q", -2**63), struct.pack("<q", -(1 << 24))])),
    st.tuples(st.integers(0, 255), st.binary(max_size=120)),
    st.tuples(st.just(253), st.binary(max_size=20)),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.text(max_size=20),
                    st.floats(), opaques)
docs = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=5), kids, max_size=5)), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(docs, st.booleans())
def test_twin_equals_the_reference_on_documents_with_every_scalar_kind(doc, large):
    _check(encode(doc, large))


@settings(max_examples=200, deadline=None)
@given(json_docs, st.booleans())
def test_twin_answers_every_plain_document(doc, large):
    answer = _check(encode(doc, large))
    assert answer is not None and answer["type"] == "json"


def test_twin_answers_the_valid_documents_with_their_layout():
    small, large = (_check(data) for data in VALID)
    assert [e["path"] for e in small["opaque"]] == [["a", 4, "b"], ["c"]]
    assert "binary" in large  # the large form of a small document is not MySQL's fresh layout


def test_nesting_past_mysqls_limit_goes_to_the_python():
    nested: object = 1
    for _ in range(101):
        nested = [nested]
    assert _check(encode(nested)) is None
    assert _check(encode(nested[0])) is not None  # 100 levels are fine


# -- damaged, cut and random bytes ---------------------------------------------------------------

@settings(max_examples=600, deadline=None)
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), max_size=6),
       st.integers(1, 400))
def test_damaged_and_cut_valid_documents_fail_like_the_python(base, edits, cut):
    _check(_damage(base, edits, cut))


@settings(max_examples=300, deadline=None)
@given(docs, st.booleans(), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4),
       st.integers(1, 10**6))
def test_damaged_generated_documents_fail_like_the_python(doc, large, edits, cut):
    data = encode(doc, large)
    _check(_damage(data, edits, 1 + cut % len(data)))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_fail_like_the_python(data):
    _check(data)


def test_huge_counts_and_sizes_are_refused_without_allocating():
    for t in (0, 1, 2, 3):
        for body in (b"\xff" * 8, b"\xff\xff\xff\xff\x10\x00\x00\x00", struct.pack("<II", 2**32 - 1, 2**32 - 1) + b"\0" * 8):
            assert _check(bytes([t]) + body) is None
    assert _check(bytes([0x0C]) + b"\xff\xff\xff\xff\x0f") is None  # a string of 2**32 - 1 bytes


@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview", "mmap"])
def test_every_buffer_type_gives_the_same_answer(kind, tmp_path):
    data = b"\x01" * 9 + VALID[0] + b"\x02" * 4
    start, end = 9, 9 + len(VALID[0])
    expected = pure_canonical_at(data, start, end)
    if kind == "mmap":
        path = tmp_path / "doc"
        path.write_bytes(data)
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            assert twin(buf, start, end) == expected
            assert twin(buf, start, len(data) + 1) is None  # past the buffer: the Python's case
        return
    buf = {"bytes": bytes, "bytearray": bytearray, "memoryview": memoryview}[kind](data)
    assert twin(buf, start, end) == expected
    assert twin(buf, -1, end) is None
    assert twin(buf, 5, 5) == {"type": "json", "value": "null"}


# -- every JSON value of the corpus and the external binlogs -------------------------------------

def _binlog_files() -> list[Path]:
    corpus = [case.parent / b["name"] for case in sorted(CORPUS.glob("*/*/case.json"))
              for b in json.loads(case.read_text())["binlogs"]]
    return corpus + [e.path for e in manifest() if e.path.exists()]


@lru_cache(maxsize=1)
def _json_documents() -> tuple[bytes, ...]:
    """Every JSON column value the rows decoder meets in those files, tapped where it converts
    them (jsonvalue.json_value's canonical_at)."""
    seen: list[bytes] = []
    real = jsonvalue.canonical_at

    def tap(buf, start, end, origin=0):
        seen.append(bytes(buf[start:end]))
        return real(buf, start, end, origin)

    jsonvalue.canonical_at = tap
    try:
        for path in _binlog_files():
            try:
                for _ in decode_file(path):
                    pass
            except BinlogError:
                pass  # a file cut or damaged on purpose: its documents up to there still count
    finally:
        jsonvalue.canonical_at = real
    return tuple(dict.fromkeys(seen))


def test_every_json_value_of_the_corpus_and_external_binlogs():
    documents = _json_documents()
    assert len(documents) >= 30  # 38 distinct documents when this test was written
    answered = sum(_check(doc) is not None for doc in documents)
    assert answered >= len(documents) - 2  # the corpus's few damaged ones go to the Python


def test_documents_whose_text_outgrows_the_first_buffer():
    strings = ["x\n\"" * 30000] * 30  # about 2.7 MB of text, escapes included
    assert _check(encode(strings, True))["value"].startswith('["x\\n\\"x')
    base64 = _check(encode([(15, bytes(range(256)) * 3000)], True))  # 1 MB of base64 lines
    assert base64["value"].count("\\n") == 768000 * 4 // 3 // 76
