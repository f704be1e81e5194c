"""MySQL's GTID events: Gtid / Anonymous_gtid as each line writes them, 8.3+'s Gtid_tagged (a
GTID with a tag, in the serialization framework), and Previous_gtids, whose tagged format (8.3+)
can name a UUID once per tag."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from .events import names
from .profiles import VersionProfile

Strategy = st.SearchStrategy
uuids = st.uuids().map(str)
ANONYMOUS_SID = "00000000-0000-0000-0000-000000000000"
# Tag::is_valid: a letter or underscore, then letters, digits, underscores; 32 at most. The
# server keeps tags lower-cased.
tags = names(32)


def _intervals() -> Strategy:
    """Ascending, disjoint, non-adjacent [start, end) intervals, as Gtid_set stores them."""
    return st.lists(st.integers(1, 10**6), min_size=2, max_size=6, unique=True).map(sorted).map(
        lambda xs: [{"start": a, "end": b} for a, b in zip(xs[::2], xs[1::2])]).filter(bool)


@lru_cache(maxsize=None)
@st.composite
def previous_gtids(draw: Callable, profile: VersionProfile) -> dict[str, Any]:
    """A GTID set in one of the profile's formats. Sids are sorted by UUID then tag, as
    Gtid_set::encode writes them; in the tagged format a UUID may come again with another tag."""
    fmt = draw(st.sampled_from(profile.previous_gtids_formats))
    tagged = fmt == "tagged"
    pool = draw(st.lists(uuids, min_size=1, max_size=2, unique=True))
    tag = st.one_of(st.just(""), tags) if tagged else st.just("")
    keys = draw(st.lists(st.tuples(st.sampled_from(pool), tag), max_size=3, unique=True))
    sids = [{"uuid": uuid, **({"tag": t} if tagged else {}), "intervals": draw(_intervals())}
            for uuid, t in sorted(keys)]
    return {"format": fmt, "sids": sids}


@lru_cache(maxsize=None)
def gtid_body(profile: VersionProfile, anonymous: bool) -> Strategy:
    """Gtid_log_event / Anonymous_gtid_log_event as the profile's servers write it. The
    transaction_length is fixed up once the transaction's bytes are known (binlog.py)."""
    base = {"gtid_flags": st.sampled_from([0, 1]),
            "sid": st.just(ANONYMOUS_SID) if anonymous else uuids,
            "gno": st.just(0) if anonymous else st.integers(1, 2**40)}
    if profile.gtid_fields != "none":
        base |= {"lt_type": st.just(2), "last_committed": st.integers(0, 10**6)}
    if profile.gtid_fields == "commit":
        base |= {"immediate_commit_timestamp": st.integers(10**15, 2**53 - 1),
                 "transaction_length": st.just(0),
                 "immediate_server_version": st.just(profile.version_id)}
    body = st.fixed_dictionaries(base)
    if profile.gtid_fields != "none":  # sequence_number > last_committed
        body = body.flatmap(lambda b: st.integers(b["last_committed"] + 1, b["last_committed"] + 100).map(
            lambda n: {**b, "sequence_number": n}))
    if profile.gtid_fields == "commit":
        body = body.map(lambda b: {**b, "original_commit_timestamp": b["immediate_commit_timestamp"],
                                   "original_server_version": b["immediate_server_version"]})
    return body


@lru_cache(maxsize=None)
def tagged_gtid_body(profile: VersionProfile) -> Strategy:
    """Gtid_tagged_log_event: the fields of a GTID event (no lt_type: the serialization
    framework has none) and a non-empty tag."""
    untyped = gtid_body(profile, anonymous=False).map(lambda b: {k: v for k, v in b.items() if k != "lt_type"})
    return st.tuples(untyped, tags).map(lambda bt: {**bt[0], "tag": bt[1]})
