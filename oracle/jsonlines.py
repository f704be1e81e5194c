"""One canonical event (or any JSON-able value) as one line of JSON: `python -m oracle decode`.

The text is json.dumps(value, ensure_ascii=False, separators=(",", ":")), the form the corpus
records. orjson (a maintained C/Rust encoder, 4x faster here) writes it when it is installed and
its text is that one: orjson prints exponents as 1e16 and small numbers as 0.00001 where Python
prints 1e+16 and 1e-05, and refuses strings with surrogates (bytes decoded with surrogateescape) and integers beyond 64 bits. A line whose
orjson text may have a number in exponent or 0.0000 form (the only places the two texts differ;
tests/test_jsonlines.py), or that orjson refuses, is written by json instead. The check costs a
fifth of what orjson saves (decode of the bench binlog: json 0.71 s, orjson 0.19 s + 0.17 s).
The compiled twin of the check (oracle/_jsonlines.c) looks at number tokens only, outside strings:
0.12 s -> 0.01 s on a 25 MB head of the bench binlog, where the expressions cost as much as orjson.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from .speedups import accelerator

_json_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
# Where orjson's number text may differ from Python's: an exponent ("e" + digits that end a
# token: a hex or text string holding that too only costs a stdlib line), or a number below
# 0.0001 ("0.0000" starting a token). Each starts with a literal, which re scans for quickly.
_EXPONENT = re.compile(rb"e-?[0-9]+(?:[,\]}]|$)").search
_BELOW_1E_4 = re.compile(rb"0\.0000(?:(?<=^0\.0000)|(?<=^-0\.0000)|(?<=[:,\[]0\.0000)|(?<=[:,\[]-0\.0000))").search


def json_line_stdlib(value: Any) -> bytes:
    """The reference: the standard library's text, UTF-8 (lone surrogates kept as
    surrogateescape bytes, as a text stream in that mode writes them)."""
    return _json_dumps(value).encode("utf-8", "surrogateescape") + b"\n"


def may_differ_pure(out: bytes) -> bool:
    """Whether orjson's text `out` may not be the standard library's (see the module doc)."""
    return _EXPONENT(out) is not None or _BELOW_1E_4(out) is not None


_compiled = accelerator("_jsonlines")
may_differ: Callable[[bytes], bool] = _compiled.may_differ if _compiled is not None else may_differ_pure


def _json_line_orjson(dumps: Callable[..., bytes], error: type[Exception]) -> Callable[[Any], bytes]:
    def json_line(value: Any) -> bytes:
        try:
            out = dumps(value)
        except error:
            return json_line_stdlib(value)
        if may_differ(out):
            return json_line_stdlib(value)
        return out + b"\n"
    return json_line


try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the stdlib text is the same
    json_line = json_line_stdlib
else:
    json_line = _json_line_orjson(orjson.dumps, orjson.JSONEncodeError)
