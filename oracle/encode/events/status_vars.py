"""The Query status-variable block, from the {name: value} dict oracle/events/status_vars.py
decodes, in the dict's order (the order they were logged in)."""
from __future__ import annotations

from typing import Any, Callable

from ...events import status_vars as dec
from ..writer import EncodeError, Writer, as_bytes

ValueWriter = Callable[[Writer, Any], None]


def _u8(w: Writer, v: Any) -> None:
    w.u8(v)


def _u16(w: Writer, v: Any) -> None:
    w.u16(v)


def _u24(w: Writer, v: Any) -> None:
    w.uint(3, v)


def _u32(w: Writer, v: Any) -> None:
    w.u32(v)


def _u64(w: Writer, v: Any) -> None:
    w.u64(v)


def _short_string(w: Writer, v: Any) -> None:
    w.u8_bytes(as_bytes(v))


def _catalog_with_nul(w: Writer, v: Any) -> None:
    w.u8_bytes(as_bytes(v, "catalog")).u8(0)


def _auto_increment(w: Writer, v: dict[str, int]) -> None:
    w.u16(v["auto_increment_increment"]).u16(v["auto_increment_offset"])


def _charset(w: Writer, v: dict[str, int]) -> None:
    w.u16(v["character_set_client"]).u16(v["collation_connection"]).u16(v["collation_server"])


def _invoker(w: Writer, v: dict[str, Any]) -> None:
    w.u8_bytes(as_bytes(v["user"], "user")).u8_bytes(as_bytes(v["host"], "host"))


def _updated_db_names(w: Writer, v: dict[str, Any]) -> None:
    if v["over_max_dbs_in_event_mts"]:
        w.u8(v["mts_accessed_dbs"])
        return
    names = v["mts_accessed_db_names"]
    w.u8(len(names), "mts_accessed_dbs")
    for name in names:
        w.cstring(as_bytes(name, "database name"))


def _rest_of_block(w: Writer, v: Any) -> None:
    w.raw(as_bytes(v))


def _gtid_flags3(w: Writer, v: dict[str, Any]) -> None:
    w.u8(v["gtid_flags_extra"])
    if "sa_seq_no" in v:
        w.u64(v["sa_seq_no"], "sa_seq_no")


def _character_set_collations(w: Writer, v: list[dict[str, int]]) -> None:
    w.u8(len(v), "character_set_collations count")
    for pair in v:
        w.u16(pair["charset"]).u16(pair["collation"])


# The decoder's readers, by function name, and their writers.
_WRITERS: dict[Callable[..., Any], ValueWriter] = {
    dec._u8: _u8, dec._u16: _u16, dec._u24: _u24, dec._u32: _u32, dec._u64: _u64,
    dec._short_string: _short_string, dec._catalog_with_nul: _catalog_with_nul,
    dec._auto_increment: _auto_increment, dec._charset: _charset, dec._invoker: _invoker,
    dec._updated_db_names: _updated_db_names, dec._rest_of_block: _rest_of_block,
    dec._gtid_flags3: _gtid_flags3, dec._character_set_collations: _character_set_collations,
}

# flavor -> name -> (code, writer), built from the decoder's own tables so the two cannot drift.
TABLES: dict[str, dict[str, tuple[int, ValueWriter]]] = {
    flavor: {var.name: (code, _WRITERS[var.read]) for code, var in table.items()}
    for flavor, table in dec.TABLES.items()
}


def encode_status_vars(values: dict[str, Any], flavor: str) -> bytes:
    table = TABLES[flavor]
    w = Writer()
    for name, value in values.items():
        entry = table.get(name)
        if entry is None:
            raise EncodeError(f"status variable {name} is not defined by {flavor}")
        code, write = entry
        w.u8(code)
        write(w, value)
    return w.bytes()
