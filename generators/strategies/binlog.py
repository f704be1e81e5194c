"""Whole binlogs for a version profile: the flavor's builder (mysql_log.py, mariadb_log.py) writes
the Format_description with the profile's post-header lengths and the events that follow it, then
event groups, and closes the file with a Rotate or Stop or leaves it open; all written through
oracle.encode. `built_binlogs()` is the strategy; a GeneratedBinlog keeps the canonical events it
was built from, so `differences()` can say where the oracle's decode of the bytes departs from them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.encode import Options, iter_encoded
from oracle.event_types import EventType as E

from .builder import Builder
from .columns import canonical_equal
from .mariadb_log import MariadbLog
from .mysql_log import MysqlLog
from .profiles import PROFILES

RECOMPUTE = Options(positions="recompute")
# Event groups in a file: 1 to 4, or none (a file just opened, or rotated at once) about one time
# in five; shrinks towards one (st.integers would draw 0 for most files).
TRANSACTIONS = st.sampled_from([1, 2, 3, 4, 0])
PROFILE_NAMES = st.sampled_from(list(PROFILES))
LOGS: dict[str, type[Builder]] = {"mysql": MysqlLog, "mariadb": MariadbLog}


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


@st.composite
def built_binlogs(draw: Callable, profile: str | None = None,
                  column_types: tuple[int, ...] | None = None) -> GeneratedBinlog:
    """A binlog of `profile` (default: any). With column_types, its tables have columns of only
    those types, and it holds at least one row transaction."""
    p = PROFILES[profile or draw(PROFILE_NAMES)]
    b = LOGS[p.flavor](draw, p, column_types)
    b.start()
    if column_types:
        b.row_transaction()
    for _ in range(draw(TRANSACTIONS)):
        getattr(b, draw(st.sampled_from(b.transactions)))()
    b.close()
    return GeneratedBinlog(p.name, b.out, encode(b.out))


def encode(events: list[dict[str, Any]]) -> bytes:
    """The file's bytes, with each GTID event's transaction_length set to the bytes from it to
    the end of its transaction (the next GTID event, or the end of the file), as 8.0 writes it.
    A length can lengthen its own event (a packed or varlen integer), hence the rounds."""
    for _ in range(8):
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
