"""Whole binlogs for a version profile: a Format_description with the profile's post-header
lengths, Previous_gtids, then DDL and row transactions (GTID or anonymous GTID event where the
profile writes one, Query BEGIN, Rows_query, Table_maps, rows events, Xid), closed by a Rotate or
Stop or left open, all written through oracle.encode. `built_binlogs()` is the strategy; a
GeneratedBinlog keeps the canonical events it was built from, so `differences()` can say where
the oracle's decode of the bytes departs from them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.encode import Options, iter_encoded
from oracle.event_types import EventType as E, HeaderFlag

from . import events as ev
from .columns import canonical_equal
from .profiles import PROFILES, VersionProfile

RECOMPUTE = Options(positions="recompute")
TICKS = st.integers(0, 3)  # seconds between events
COIN = st.booleans()
TABLES = st.integers(1, 2)  # tables per row transaction
STATEMENTS = st.lists(st.sampled_from(ev.ROWS_EVENTS), min_size=1, max_size=2)  # rows events per table
ENDINGS = st.sampled_from(["open", "rotate", "stop"])  # shrinks towards an open file
DDL_FLAGS = st.sampled_from([0, HeaderFlag.LOG_EVENT_SUPPRESS_USE_F])
TRANSACTIONS = st.integers(0, 3)
CHECKSUMS = st.sampled_from(["CRC32", "OFF"])
PROFILE_NAMES = st.sampled_from(list(PROFILES))


@dataclass
class GeneratedBinlog:
    profile: str
    events: list[dict[str, Any]]  # canonical, as built (before the encoder filled in lengths)
    data: bytes = field(repr=False, default=b"")

    def __repr__(self) -> str:  # what hypothesis prints for a falsifying example
        kinds = " ".join(e["type"].removesuffix("_EVENT").removesuffix("_LOG") for e in self.events)
        return f"GeneratedBinlog({self.profile}, {len(self.data)} bytes: {kinds})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis' pretty-printer
        printer.text(repr(self))


class Builder:
    """The state a file's events share: the clock (timestamps never go back), server id,
    checksum setting, next table id and xid."""

    def __init__(self, draw: Callable, profile: VersionProfile, column_types: tuple[int, ...] | None) -> None:
        self.draw, self.profile = draw, profile
        self.columns = ev.table_columns(profile, column_types or profile.column_types)
        self.now = draw(ev.timestamps)
        self.server_id = draw(ev.server_ids)
        self.checksum = draw(CHECKSUMS)
        self.gtids = draw(COIN)  # gtid_mode=ON (else anonymous, or nothing before 5.7)
        self.table_id = draw(st.integers(1, 2**32))
        self.xid = draw(st.integers(1, 2**40))
        self.out: list[dict[str, Any]] = []

    def add(self, type_code: int, body: dict[str, Any], flags: int = 0) -> None:
        self.now += self.draw(TICKS)
        self.out.append(ev.event(type_code, body, timestamp=self.now, server_id=self.server_id,
                                 checksum=self.checksum, flags=flags))

    def gtid(self) -> None:
        if self.gtids:
            self.add(E.GTID_LOG_EVENT, self.draw(ev.gtid_body(self.profile, anonymous=False)))
        elif E.ANONYMOUS_GTID_LOG_EVENT in self.profile.events:
            self.add(E.ANONYMOUS_GTID_LOG_EVENT, self.draw(ev.gtid_body(self.profile, anonymous=True)))

    def ddl(self) -> None:
        self.gtid()
        db = self.draw(ev.identifiers)
        body = {**self.draw(ev.query_body(self.profile)), "db": db, "query": self.draw(ev.ddl_statements)(db)}
        self.add(E.QUERY_EVENT, body, flags=self.draw(DDL_FLAGS))

    def row_transaction(self) -> None:
        self.gtid()
        db = self.draw(ev.identifiers)
        self.add(E.QUERY_EVENT, {**self.draw(ev.query_body(self.profile)), "db": db, "query": "BEGIN"})
        if self.draw(COIN):
            self.add(E.ROWS_QUERY_LOG_EVENT, {"length": 0, "rows_query": f"INSERT INTO `{db}`.t VALUES (...)"},
                     flags=HeaderFlag.LOG_EVENT_IGNORABLE_F)
        tables = []
        for _ in range(self.draw(TABLES)):
            self.table_id += 1
            cols = self.draw(self.columns)
            self.add(E.TABLE_MAP_EVENT, ev.table_map_body(self.table_id, db, self.draw(ev.identifiers), cols,
                                                          self.profile.signedness_metadata))
            tables.append((self.table_id, cols))
        statements = [(tid, cols, code) for tid, cols in tables
                      for code in self.draw(STATEMENTS)]
        for i, (tid, cols, code) in enumerate(statements):
            self.add(code, self.draw(ev.rows_body(code, tid, cols, last=i == len(statements) - 1)))
        self.xid += 1
        self.add(E.XID_EVENT, {"xid": self.xid})

    def close(self) -> bool:
        """Rotate, Stop, or nothing (the file is still being written). True when closed."""
        end = self.draw(ENDINGS)
        if end == "rotate":
            self.add(E.ROTATE_EVENT, {"pos": 4, "new_log_ident": "binlog.000002"})
        elif end == "stop":
            self.add(E.STOP_EVENT, {})
        return end != "open"


@st.composite
def built_binlogs(draw: Callable, profile: str | None = None,
                  column_types: tuple[int, ...] | None = None) -> GeneratedBinlog:
    """A binlog of `profile` (default: any). With column_types, its tables have columns of only
    those types, and it holds at least one row transaction."""
    p = PROFILES[profile or draw(PROFILE_NAMES)]
    b = Builder(draw, p, column_types)
    if column_types:
        b.row_transaction()
    for _ in range(draw(TRANSACTIONS)):
        draw(st.sampled_from([b.ddl, b.row_transaction]))()
    closed = b.close()
    head = [ev.format_description(p, b.checksum, b.out[0]["timestamp"] if b.out else b.now, in_use=not closed)]
    head[0]["server_id"] = b.server_id
    head.append(ev.event(E.PREVIOUS_GTIDS_LOG_EVENT, draw(ev.previous_gtids(p)), timestamp=head[0]["timestamp"],
                         server_id=b.server_id, checksum=b.checksum,
                         flags=HeaderFlag.LOG_EVENT_IGNORABLE_F if p.name != "5.6" else 0))
    events = head + b.out
    return GeneratedBinlog(p.name, events, encode(events))


def encode(events: list[dict[str, Any]]) -> bytes:
    """The file's bytes, with each GTID event's transaction_length set to the bytes from it to
    the end of its transaction (the next GTID event, or the end of the file), as 8.0 writes it."""
    for _ in range(3):
        sizes = [len(data) for _, data in iter_encoded(events, options=RECOMPUTE)]
        changed = False
        starts = [i for i, e in enumerate(events) if "transaction_length" in e["body"]] + [len(events)]
        for i, j in zip(starts, starts[1:]):
            end = next((k for k in range(i + 1, j) if events[k]["type_code"] in (E.ROTATE_EVENT, E.STOP_EVENT)), j)
            length = sum(sizes[i:end])
            if events[i]["body"]["transaction_length"] != length:
                events[i]["body"]["transaction_length"] = length
                changed = True
        if not changed:
            break
    return b"\xfebin" + b"".join(data for _, data in iter_encoded(events, options=RECOMPUTE))


# -- comparing a decode with what was built -----------------------------------------------------

def differences(built: list[dict[str, Any]], decoded: list[dict[str, Any]]) -> list[str]:
    """Where the decoded events depart from the built ones: every header field and body value the
    strategy set must come back unchanged (fields the decoder derives are not compared)."""
    out = []
    if len(built) != len(decoded):
        out.append(f"{len(decoded)} events decoded, {len(built)} built")
    for i, (b, d) in enumerate(zip(built, decoded)):
        where = f"event {i} ({b['type']})"
        for name, want, got in (("type_code", b["type_code"], d.get("type_code")),
                                ("timestamp", b["timestamp"], d.get("timestamp")),
                                ("server_id", b["server_id"], d.get("server_id")),
                                ("flags", b["flags"], (d.get("flags") or {}).get("value")),
                                ("checksum.algorithm", b["checksum"]["algorithm"],
                                 (d.get("checksum") or {}).get("algorithm"))):
            if want != got:
                out.append(f"{where} {name}: built {want!r}, decoded {got!r}")
        out += [f"{where} body{path}: built {w!r}, decoded {g!r}"
                for path, w, g in _subset_diffs(b["body"], d.get("body"), "")]
    return out


def _subset_diffs(want: Any, got: Any, path: str):
    if isinstance(want, dict) and not (want.get("type") == "jsonb"):
        if not isinstance(got, dict):
            yield path, want, got
            return
        for k, v in want.items():
            yield from _subset_diffs(v, got.get(k, "<absent>"), f"{path}.{k}")
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            yield path, want, got
            return
        for i, (w, g) in enumerate(zip(want, got)):
            yield from _subset_diffs(w, g, f"{path}[{i}]")
    elif not canonical_equal(want, got):
        yield path, want, got
