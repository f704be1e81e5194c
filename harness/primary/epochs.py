"""A table's definitions over the served binlogs, one per epoch: an epoch begins where a DDL
statement that gives the table a new definition ends (harness/primary/ddl.py). A CDC client
tailing a live server looks a table up while it reads that table's rows, so a live server answers
with the definition in force there; the lookups answer with the epoch of the position the client
reads (harness/primary/client_groups.py says which position that is). docs/primary.md, "The
schema at a position"."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace

from .tables import Column, Table

Key = tuple[str, str]  # (schema, table), lower case
Position = tuple[int, int]  # (index of the served file, byte offset in it)


@dataclass
class TableHistory:
    """Where each definition of one table takes effect, in binlog order. A definition of None:
    the DDL there was not followed (the lookups of that epoch fall back: `SchemaEpochs.table_at`)."""
    starts: list[Position] = field(default_factory=list)
    tables: list[Table | None] = field(default_factory=list)

    def epoch_at(self, pos: Position) -> int:
        """The epoch in force at pos; before the first DDL of the table, the first epoch (the
        rows there were written by a server whose definition the binlog does not show)."""
        return max(0, bisect.bisect_right(self.starts, pos) - 1)


@dataclass
class SchemaEpochs:
    """Every table's history, and which events map which tables (a Table_map, or a
    Transaction_payload holding Table_maps), by position: what a dump notes as it sends them."""
    histories: dict[Key, TableHistory] = field(default_factory=dict)
    table_maps: dict[Position, tuple[Key, ...]] = field(default_factory=dict)

    def begin(self, key: Key, start: Position, table: Table | None) -> None:
        h = self.histories.setdefault(key, TableHistory())
        if h.starts and h.starts[-1] == start:  # two changes in one statement (RENAME a TO b, b TO c)
            h.tables[-1] = table
            return
        h.starts.append(start)
        h.tables.append(table)

    def mapped(self, pos: Position, key: Key) -> None:
        keys = self.table_maps.get(pos, ())
        if key not in keys:
            self.table_maps[pos] = (*keys, key)

    def epoch_at(self, key: Key, pos: Position | None) -> int | None:
        """The epoch of key at pos; None where the table has one definition only (or pos is None:
        the client group has read no event yet) and the final one answers."""
        h = self.histories.get(key)
        if h is None or len(h.starts) < 2 or pos is None:
            return None
        return h.epoch_at(pos)

    def table_at(self, key: Key, epoch: int | None, final: Table | None) -> Table | None:
        """The definition of an epoch; the final one (the strongest source's: served.py) for the
        last epoch, for None, and for an epoch whose DDL was not followed."""
        h = self.histories.get(key)
        if epoch is None or h is None or epoch >= len(h.tables) - 1:
            return final
        return h.tables[epoch] or final

    def finish(self, finals: dict[Key, Table]) -> None:
        """The earlier epochs take what the final definition says and the DDL did not, column by
        column where name and type agree (charset, collation: the server's defaults)."""
        for key, h in self.histories.items():
            final = finals.get(key)
            if final is None:
                continue
            by_name = {c.name.lower(): c for c in final.columns}
            h.tables = [_filled(t, by_name) if t is not None else None for t in h.tables]


def _filled(table: Table, final: dict[str, Column]) -> Table:
    columns = []
    for c in table.columns:
        f = final.get(c.name.lower())
        if f is not None and f.data_type == c.data_type and c.collation is None and c.charset in (None, f.charset):
            c = replace(c, charset=f.charset, collation=f.collation,
                        char_length=c.char_length if c.char_length is not None else
                        (f.char_length if f.column_type == c.column_type else None),
                        octet_length=c.octet_length if c.octet_length is not None else
                        (f.octet_length if f.column_type == c.column_type else None))
        columns.append(c)
    return replace(table, columns=columns)
