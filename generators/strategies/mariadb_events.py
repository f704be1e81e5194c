"""MariaDB's own events: the Gtid event that opens every event group (flags2 saying what kind of
group it is, a group-commit id, an XID for XA, flags_extra by version), Gtid_list (the binlog
state a file starts from) and Binlog_checkpoint, in the canonical form oracle.encode writes."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.events.mariadb_gtid import FLAGS2, FLAGS_EXTRA
from oracle.events.xa_prepare import xid_fields
from oracle.values import binary, integer

from .events import COMMIT_ALTER, ROLLBACK_ALTER
from .profiles import VersionProfile

Strategy = st.SearchStrategy
F2 = {name: bit for bit, name in FLAGS2.items()}
FX = {name: bit for bit, name in FLAGS_EXTRA.items()}

domain_ids = st.one_of(st.just(0), st.integers(0, 2**32 - 1))
server_ids = st.integers(1, 2**32 - 1)
seq_nos = st.integers(1, 2**64 - 1)
first_seq_nos = st.integers(1, 2**64 - 2**8)  # a file's first GTID: room for the groups after it

# flags2 of each kind of event group (Gtid_log_event's constructor): a DDL statement stands alone;
# a transaction ends in an Xid, a non-transactional group in a COMMIT Query; XA's PREPARE and its
# COMMIT/ROLLBACK are groups of their own.
GROUPS = {
    "ddl": F2["FL_STANDALONE"] | F2["FL_DDL"],
    "transactional": F2["FL_TRANSACTIONAL"],
    "non-transactional": 0,
    "xa-prepare": F2["FL_TRANSACTIONAL"] | F2["FL_PREPARED_XA"],
    "xa-complete": F2["FL_STANDALONE"] | F2["FL_TRANSACTIONAL"] | F2["FL_COMPLETED_XA"],
}
# What any group may have besides: parallel replication allowed, a lock wait seen.
_circumstances = st.sets(st.sampled_from([F2["FL_ALLOW_PARALLEL"], F2["FL_WAITED"]])).map(sum)
# A group committed with others carries the group's commit id (FL_GROUP_COMMIT_ID).
_commit_ids = st.one_of(st.none(), st.integers(1, 2**64 - 1).map(integer))

# An XA transaction's XID: MariaDB wants a gtrid of 1..64 bytes, a bqual of 0..64.
xids = st.builds(xid_fields, st.integers(0, 2**32 - 1), st.binary(min_size=1, max_size=64),
                 st.binary(max_size=64))


@st.composite
def gtid_flags(draw: Callable, group: str) -> dict[str, Any]:
    """flags2 (and the commit id it announces) of a Gtid event opening a `group`."""
    commit_id = draw(_commit_ids)
    flags2 = GROUPS[group] | draw(_circumstances) | (F2["FL_GROUP_COMMIT_ID"] if commit_id else 0)
    return {"flags2": flags2, **({"commit_id": commit_id} if commit_id else {})}


@lru_cache(maxsize=None)
def _optional_extra(names: tuple[str, ...]) -> Strategy:
    return st.sets(st.sampled_from([FX[name] for name in names])).map(sum) if names else st.just(0)


@st.composite
def flags_extra(draw: Callable, profile: VersionProfile, thread_id: int,
                alter: dict[str, Any] | None) -> dict[str, Any]:
    """flags_extra and the fields it announces, as the profile's servers write them: other engines
    in the transaction (10.11 and 11.8 write them, 10.5 not), the two-phase ALTER the group's Query
    is a phase of (10.8+), the thread id (11.8). Absent when zero: the server then writes zero
    padding, which the decoder reads as flags_extra 0."""
    bits = draw(_optional_extra(profile.gtid_flags_extra))
    fields: dict[str, Any] = {}
    if bits & FX["FL_EXTRA_MULTI_ENGINE_E1"]:
        fields["extra_engines"] = draw(st.integers(1, 4))
    if alter:
        bits |= alter["gtid_flags_extra"]
        if alter["gtid_flags_extra"] & (COMMIT_ALTER | ROLLBACK_ALTER):
            fields["sa_seq_no"] = alter["sa_seq_no"]
    if profile.gtid_thread_id:
        bits |= FX["FL_EXTRA_THREAD_ID"]
        fields["thread_id"] = thread_id
    return {"flags_extra": bits, **fields} if bits else {}


def gtid_list_body(gtids: list[dict[str, Any]]) -> dict[str, Any]:
    """An empty list is followed by two zero bytes (10.5+ write them; the decoder keeps them)."""
    return {"gl_flags": 0, "list": gtids, **({} if gtids else {"trailing": binary(b"\0\0")})}


@st.composite
def _domain_state(draw: Callable, domain_id: int, latest: int, last_server: st.SearchStrategy) -> list[dict[str, Any]]:
    """One domain's part of a binlog state: the last GTID of each server that wrote in it, the
    domain's latest (seq_no `latest`) last."""
    last = draw(last_server)
    earlier = draw(st.lists(st.tuples(server_ids.filter(lambda s: s != last), st.integers(1, latest - 1)),
                            max_size=2, unique_by=lambda g: g[0])) if latest > 1 else []
    return [{"domain_id": domain_id, "server_id": s, "seq_no": integer(n)}
            for s, n in sorted(earlier, key=lambda g: g[1]) + [(last, latest)]]


@st.composite
def binlog_state(draw: Callable, server_id: int, domain_id: int, next_seq_no: int) -> list[dict[str, Any]]:
    """The binlog state a file starts from, as its Gtid_list gives it: the domains written in
    before, the file's own one (unless the file starts the log) last at next_seq_no - 1, by this
    server or another (a master switch). A state ahead of the file's GTIDs is refused by
    mariadb-binlog ("Binary logs never reached expected GTID state")."""
    domains = draw(st.lists(domain_ids.filter(lambda d: d != domain_id), max_size=2, unique=True))
    states = [draw(_domain_state(d, draw(seq_nos), server_ids)) for d in domains]
    if next_seq_no > 1:
        own = draw(_domain_state(domain_id, next_seq_no - 1, st.one_of(st.just(server_id), server_ids)))
        states.insert(draw(st.integers(0, len(states))), own)
    return [g for state in states for g in state]
