"""Which reported event belongs to which expected event, before any field is compared.

Pairing by index turns one skipped event into a diff for every later event. Instead the two
streams are aligned as sequences (difflib's longest-matching-blocks, an LCS in practice):
- by position, when the parser claims to report positions and every reported event has one
  (a position identifies a top-level event in a file);
- else, and inside stretches the positions do not explain (a parser whose positions are wrong),
  by event type (name, or type code when that is all the parser reports);
- else by index.
A pair is (expected index, actual index); None on one side is a missing or an extra event."""
from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Callable, Hashable, Iterator

from .plugins.base import Capabilities

Pair = tuple["int | None", "int | None"]
Key = Callable[[dict[str, Any]], Hashable]
# Type keys repeat (thousands of WRITE_ROWS_EVENTs): the matcher is quadratic on such input, so a
# stretch larger than this (cells of expected x actual) is paired by index instead.
MAX_TYPE_ALIGN_CELLS = 4_000_000


def _position_key(caps: Capabilities, actual: list[dict[str, Any]]) -> Key | None:
    if "position" not in caps.header:
        return None
    if not all(isinstance(a.get("position"), int) and "position" not in (a.get("_undetermined") or ())
               for a in actual):
        return None
    return lambda e: e.get("position")


def type_kind(name: Any) -> Any:
    """A type name without its version or compression: WRITE_ROWS_EVENT_V1, WRITE_ROWS_EVENT and
    WRITE_ROWS_COMPRESSED_EVENT are one kind. Many libraries name the kind only (zongji's
    WriteRows class, canal's "insert", Debezium's op "c"), so events pair by what they are; a
    wrong version still shows, as a difference in the field `type` where the parser claims it."""
    if not isinstance(name, str):
        return name
    for prefix in ("PRE_GA_", "PARTIAL_"):
        name = name.removeprefix(prefix)
    return name.replace("_COMPRESSED", "").removesuffix("_V1")


def _type_key(actual: list[dict[str, Any]]) -> Key | None:
    """The type as the parser reports it: its name's kind (type_kind), else its code; None if some
    event has neither."""
    for field, kind, key in (("type", str, type_kind), ("type_code", int, lambda v: v)):
        if all(isinstance(a.get(field), kind) and field not in (a.get("_undetermined") or ())
               for a in actual):
            return lambda e, f=field, k=key: k(e.get(f))
    return None


def _by_index(i0: int, i1: int, j0: int, j1: int) -> Iterator[Pair]:
    n = min(i1 - i0, j1 - j0)
    for k in range(n):
        yield i0 + k, j0 + k
    for i in range(i0 + n, i1):
        yield i, None
    for j in range(j0 + n, j1):
        yield None, j


def _match(exp_keys: list[Hashable], act_keys: list[Hashable], i0: int, i1: int, j0: int, j1: int,
           inner: Callable[[int, int, int, int], Iterator[Pair]]) -> Iterator[Pair]:
    """Align exp_keys[i0:i1] with act_keys[j0:j1]; stretches that differ go to `inner`."""
    # Common head and tail first: the usual case (nothing or little missing) costs linear time.
    while i0 < i1 and j0 < j1 and exp_keys[i0] == act_keys[j0]:
        yield i0, j0
        i0, j0 = i0 + 1, j0 + 1
    tail = []
    while i1 > i0 and j1 > j0 and exp_keys[i1 - 1] == act_keys[j1 - 1]:
        i1, j1 = i1 - 1, j1 - 1
        tail.append((i1, j1))
    if (i1 - i0) * (j1 - j0) > MAX_TYPE_ALIGN_CELLS and len(set(exp_keys[i0:i1])) < (i1 - i0):
        yield from inner(i0, i1, j0, j1)
    else:
        matcher = SequenceMatcher(None, exp_keys[i0:i1], act_keys[j0:j1], autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                yield from zip(range(i0 + a0, i0 + a1), range(j0 + b0, j0 + b1))
            else:
                yield from inner(i0 + a0, i0 + a1, j0 + b0, j0 + b1)
    yield from reversed(tail)


def align(expected: list[dict[str, Any]], actual: list[dict[str, Any]], caps: Capabilities) -> list[Pair]:
    """Pairs in stream order covering every expected and every actual event exactly once."""
    type_key = _type_key(actual)
    if type_key is not None:
        exp_types = [type_key(e) for e in expected]
        act_types = [type_key(a) for a in actual]

        def by_type(i0: int, i1: int, j0: int, j1: int) -> Iterator[Pair]:
            return _match(exp_types, act_types, i0, i1, j0, j1, _by_index)
    else:
        by_type = _by_index
    position_key = _position_key(caps, actual)
    if position_key is not None:
        exp_pos = [position_key(e) for e in expected]
        act_pos = [position_key(a) for a in actual]
        return list(_match(exp_pos, act_pos, 0, len(expected), 0, len(actual), by_type))
    return list(by_type(0, len(expected), 0, len(actual)))
