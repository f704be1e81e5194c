"""The binlogs a primary serves: which files, in which order, and the facts a server reports about
them (version, server_id, checksum, GTID state), all read from the files themselves."""
from __future__ import annotations

import mmap
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from oracle.decoder import decode_raw, new_context
from oracle.errors import BinlogError
from oracle.event_types import EventType as T
from oracle.fde import FormatDescription
from oracle.framing import MAGIC, walk

from ..corpus import CorpusError, discover
from .ddl import Dialect, SchemaReplay
from .epochs import Position, SchemaEpochs
from .tables import Table, case_tables, create_statements, table_from_map
from .written_settings import DML_WORD, ROWS_TYPES, WrittenSettings

GTID_TYPES = (T.GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT)
QUERY_TYPES = (T.QUERY_EVENT, T.QUERY_COMPRESSED_EVENT)
_SCHEMA_EVENTS = (T.TABLE_MAP_EVENT, *QUERY_TYPES, T.TRANSACTION_PAYLOAD_EVENT)  # what says how tables look
# Settings of the server that wrote a corpus case that its binlogs do not record, but that a
# client checks: Debezium refuses a server whose binlog_format is not ROW or whose
# binlog_row_image is not FULL, and must refuse the primary serving that server's binlogs alike.
# Where no case.json records them, the events show them (written_settings.py).
RECORDED_SETTINGS = ("binlog_format", "binlog_row_image")
_DDL_WORD = re.compile(rb"(?i)\b(?:create|alter|drop|rename)\b")  # harness/primary/ddl.py follows only these


class ServeError(Exception):
    """The PATHs given cannot be served (missing, not binlogs, two files of one name)."""


@dataclass(frozen=True)
class ServedFile:
    name: str
    path: Path

    @property
    def size(self) -> int:
        return self.path.stat().st_size


@dataclass
class ServedLogs:
    files: list[ServedFile]
    format: FormatDescription  # the first file's Format_description
    server_id: int
    mysql_gtids: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=dict)
    mariadb_gtids: dict[int, str] = field(default_factory=dict)  # domain -> "D-S-N", the last one
    # MariaDB's binlog state: (domain, server_id) -> the highest seq_no (Gtid_lists and GTID events)
    mariadb_state: dict[tuple[int, int], int] = field(default_factory=dict)
    flavor_override: str | None = None  # --flavor mysql|mariadb; None: what the FDE names
    # file name -> {domain: seq_no} of its first Gtid_list (MariaDB: the state before the file)
    gtid_lists: dict[str, dict[int, int]] = field(default_factory=dict)
    # ... and its entries as (domain, server_id, seq_no)
    gtid_list_gtids: dict[str, set[tuple[int, int, int]]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # MySQL, per file name: its Previous_gtids, and its first GTID (sid, tag, gno)
    previous_gtids: dict[str, dict[tuple[str, str], list[tuple[int, int]]]] = field(default_factory=dict)
    first_gtid: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    # The tables the lookups know, (schema, table) lower case: schema_of() below
    tables: dict[tuple[str, str], Table] = field(default_factory=dict)
    named_table_maps: bool = False  # did any Table_map name its columns (binlog_row_metadata=FULL)?
    # Tables the Table_maps name that no source describes: the lookups say they do not exist
    undescribed: list[tuple[str, str]] = field(default_factory=list)
    # file name -> the real server's SHOW BINLOG EVENTS of it (a corpus case's case.json `server_events`)
    server_events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # each table's definitions by binlog position, and the events that map tables (epochs.py)
    epochs: SchemaEpochs = field(default_factory=SchemaEpochs)
    # The writing server's settings a client checks and the files cannot say (case.json `config`)
    recorded_settings: dict[str, str] = field(default_factory=dict)

    def table(self, schema: str, name: str) -> Table | None:
        """The final definition (after the last DDL, or as of the DROP)."""
        return self.tables.get((schema.lower(), name.lower()))

    @property
    def flavor(self) -> str:
        return self.flavor_override or self.format.flavor

    @property
    def version(self) -> tuple[int, int, int]:
        return self.format.version_tuple

    def find(self, name: str) -> int | None:
        return next((i for i, f in enumerate(self.files) if f.name == name), None)

    @property
    def server_uuid(self) -> str:
        """The UUID of the GTIDs the served server wrote itself, else one derived from server_id."""
        for sid, _tag in self.mysql_gtids:
            return sid
        return str(uuid.uuid5(uuid.NAMESPACE_OID, f"binlog-conformance-primary-{self.server_id}"))

    def gtid_executed(self) -> str:
        return _set_text(self.mysql_gtids)

    def previous_gtid_text(self, name: str) -> str:
        """The executed set before file `name`'s first transaction (its Previous_gtids), as
        SHOW ... STATUS and gtid_executed print it: what a server that had just opened that file
        reports, and the set a client starts a GTID dump of that file from."""
        return _set_text(self.previous_gtids.get(name, {}))

    def gtid_binlog_pos(self) -> str:
        return ",".join(self.mariadb_gtids[d] for d in sorted(self.mariadb_gtids))


@dataclass
class _SchemaSources:
    """What says how the served tables looked while the server wrote the files, strongest first."""
    recorded: dict[tuple[str, str], Table] = field(default_factory=dict)  # case.json `tables`
    replay: SchemaReplay = field(default_factory=SchemaReplay)  # the binlogs' own DDL
    maps: dict[tuple[str, str], Table | None] = field(default_factory=dict)  # the last Table_map's say
    creates: dict[tuple[str, str], str] = field(default_factory=dict)  # CREATE TABLEs a case's scenario ran
    server_events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # case.json, per file name
    epochs: SchemaEpochs = field(default_factory=SchemaEpochs)  # the replay's definitions by position
    settings: dict[str, str] = field(default_factory=dict)  # case.json `config.settings`, RECORDED_SETTINGS

    def schema_of(self) -> dict[tuple[str, str], Table]:
        """Each table from its strongest source; a table none describes is left out (the server
        does not have it), and so is one whose DDL was not followed (ddl.py)."""
        out: dict[tuple[str, str], Table] = {}
        for key in {*self.maps, *self.replay.tables, *self.recorded}:
            found = self.recorded.get(key) or _with_charsets(self.replay.tables.get(key), self.maps.get(key)) \
                or self.maps.get(key)
            if found is None:
                continue
            # The binlog's statement as the server ran it, else the scenario's, also for a table an
            # ALTER changed later (its first definition): a rendering of the final definition made
            # Debezium fail where it read the same binlog from a real server (docs/primary.md).
            if found.create_statement is None:
                replayed = self.replay.tables.get(key)
                found.create_statement = (replayed.create_statement if replayed is not None else None) \
                    or self.creates.get(key)
            out[key] = found
        return out


def _with_charsets(table: Table | None, mapped: Table | None) -> Table | None:
    """A table from DDL, with the character sets and collations its Table_map names where the
    DDL names none (the server's defaults, which the statement leaves unsaid)."""
    if table is None or mapped is None or [c.name for c in table.columns] != [c.name for c in mapped.columns]:
        return table
    for c, m in zip(table.columns, mapped.columns):
        if c.collation is None and c.data_type == m.data_type and c.charset in (None, m.charset):
            c.charset, c.collation = m.charset, m.collation
    return table


def _binlog_paths(arg: str, sources: _SchemaSources) -> list[Path]:
    p = Path(arg)
    try:
        cases = discover(p)
    except CorpusError as e:
        raise ServeError(str(e)) from e
    for c in cases:
        sources.creates.update(create_statements(c.meta))
        sources.recorded.update(case_tables(c.meta))
        sources.server_events.update({b["name"]: b["server_events"] for b in c.meta.get("binlogs") or []
                                      if isinstance(b, dict) and isinstance(b.get("server_events"), list)})
        settings = (c.meta.get("config") or {}).get("settings") or {}
        sources.settings.update({k: str(settings[k]).upper() for k in RECORDED_SETTINGS if k in settings})
    paths = [c.path for c in cases]
    return [q for q in paths if _starts_with_magic(q)] if p.is_dir() else paths


def _starts_with_magic(p: Path) -> bool:
    with open(p, "rb") as f:
        return f.read(4) == MAGIC


def events(path: Path, settings_shown: bool = False) -> Iterator[tuple[Any, Any]]:
    """(raw event, decoded event or None) of a file, decoding only the events the state needs;
    with settings_shown also the rows events and DML Queries, which show the writing server's
    binlog_format and binlog_row_image (written_settings.py)."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        ctx = new_context(verify_checksums=False)
        for raw in walk(buf, verify_checksums=False):  # type: ignore[arg-type]
            code = raw.header.type_code
            wanted = code in (*GTID_TYPES, T.PREVIOUS_GTIDS_LOG_EVENT, T.GTID_EVENT, T.GTID_LIST_EVENT,
                              *_SCHEMA_EVENTS)
            if code == T.QUERY_EVENT:  # most are BEGIN, COMMIT or DML: decoded only if DDL may be there
                wanted = _DDL_WORD.search(buf, raw.body_start, raw.body_end) is not None \
                    or (settings_shown and DML_WORD.search(buf, raw.body_start, raw.body_end) is not None)
            elif settings_shown and code in ROWS_TYPES:
                wanted = True
            yield raw, decode_raw(buf, raw, ctx) if wanted else None  # type: ignore[arg-type]


def load(paths: list[str]) -> ServedLogs:
    files: list[ServedFile] = []
    sources = _SchemaSources()
    for arg in paths:
        for p in _binlog_paths(arg, sources):
            files.append(ServedFile(p.name, p.resolve()))
    if not files:
        raise ServeError(f"no binlog files under {' '.join(paths)}")
    names = [f.name for f in files]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ServeError(f"two served files share the name {dup[0]}: a primary serves each name once")
    logs: ServedLogs | None = None
    written = WrittenSettings() if not set(RECORDED_SETTINGS) <= set(sources.settings) else None
    for index, f in enumerate(files):
        try:
            for raw, event in events(f.path, written is not None):
                if written is not None and event is not None:
                    written.observe(event.type_code, event.body)
                if logs is None:
                    if raw.header.type_code != T.FORMAT_DESCRIPTION_EVENT:
                        raise ServeError(f"{f.path}: the first event is not a Format_description")
                    logs = ServedLogs(files, raw.format, raw.header.server_id)
                    sources.replay.dialect = Dialect.of(logs.flavor, logs.version)
                if event is not None and event.type_code in _SCHEMA_EVENTS:
                    _note_schema(logs, sources, event.type_code, event.body, (index, raw.offset),
                                 (index, raw.offset + raw.header.event_size))
                elif event is not None:
                    _note_gtids(logs, event.type_code, event.body, raw.header.server_id)
                    _note_file_gtids(logs, f.name, event.type_code, event.body)
                    if event.type_code == T.GTID_LIST_EVENT and f.name not in logs.gtid_lists:
                        logs.gtid_lists[f.name] = {int(g["domain_id"]): _int(g["seq_no"])
                                                   for g in event.body.get("list", [])}
                        logs.gtid_list_gtids[f.name] = {(int(g["domain_id"]), int(g["server_id"]), _int(g["seq_no"]))
                                                        for g in event.body.get("list", [])}
        except BinlogError as e:
            if logs is None:
                raise ServeError(f"{f.path}: {e}") from e
            # Served as it is: a dump reaching the bad bytes ends with the server's ERR 1236.
            logs.warnings.append(f"{f.name}: {e} (served as it is)")
    assert logs is not None
    logs.tables = sources.schema_of()
    sources.epochs.finish(logs.tables)
    logs.epochs = sources.epochs
    logs.undescribed = sorted(k for k in sources.maps if k not in logs.tables)
    logs.server_events = {f.name: sources.server_events[f.name] for f in files if f.name in sources.server_events}
    logs.recorded_settings = {**(written.settings() if written is not None else {}), **sources.settings}
    return logs




def _note_schema(logs: ServedLogs, sources: _SchemaSources, type_code: int, body: dict[str, Any],
                 at: Position, end: Position) -> None:
    """A Table_map (the table's last say wins; it also completes the definition of its epoch), a
    Query's DDL (a new epoch, from the event's end, for each table it changed), or the events a
    payload holds (mapped at the payload's position: the dump sends them in one event)."""
    if type_code == T.TABLE_MAP_EVENT:
        logs.named_table_maps |= any(o.get("name") == "COLUMN_NAME" for o in body.get("optional_metadata") or [])
        key = (str(body["schema"]).lower(), str(body["table"]).lower())
        sources.maps[key] = mapped = table_from_map(body)
        sources.epochs.mapped(at, key)
        history = sources.epochs.histories.get(key)
        if history is not None:
            _with_charsets(history.tables[-1], mapped)
    elif type_code in QUERY_TYPES and isinstance(body.get("query"), str):
        db = body.get("db")
        sources.replay.apply(db if isinstance(db, str) and db else None, body["query"])
        for key in sources.replay.changed:
            sources.epochs.begin(key, end, sources.replay.tables.get(key))
    elif type_code == T.TRANSACTION_PAYLOAD_EVENT:
        for inner in body.get("events") or []:
            if inner.get("type_code") in _SCHEMA_EVENTS and isinstance(inner.get("body"), dict):
                _note_schema(logs, sources, inner["type_code"], inner["body"], at, end)


def _note_gtids(logs: ServedLogs, type_code: int, body: dict[str, Any], server_id: int) -> None:
    if type_code in GTID_TYPES:
        key = (body["sid"], body.get("tag", ""))
        gno = int(body["gno"] if not isinstance(body["gno"], dict) else body["gno"]["value"])
        logs.mysql_gtids.setdefault(key, []).append((gno, gno + 1))
    elif type_code == T.PREVIOUS_GTIDS_LOG_EVENT:
        for sid in body["sids"]:
            key = (sid["uuid"], sid.get("tag", ""))
            logs.mysql_gtids.setdefault(key, []).extend(
                (_int(iv["start"]), _int(iv["end"])) for iv in sid["intervals"])
    elif type_code == T.GTID_EVENT:
        logs.mariadb_gtids[int(body["domain_id"])] = f"{body['domain_id']}-{server_id}-{_int(body['seq_no'])}"
        _note_mariadb_state(logs, int(body["domain_id"]), server_id, _int(body["seq_no"]))
    elif type_code == T.GTID_LIST_EVENT:
        for g in body.get("list", []):
            logs.mariadb_gtids.setdefault(int(g["domain_id"]), f"{g['domain_id']}-{g['server_id']}-{_int(g['seq_no'])}")
            _note_mariadb_state(logs, int(g["domain_id"]), int(g["server_id"]), _int(g["seq_no"]))


def _note_mariadb_state(logs: ServedLogs, domain: int, server_id: int, seq_no: int) -> None:
    key = (domain, server_id)
    logs.mariadb_state[key] = max(seq_no, logs.mariadb_state.get(key, seq_no))


def _note_file_gtids(logs: ServedLogs, name: str, type_code: int, body: dict[str, Any]) -> None:
    if type_code == T.PREVIOUS_GTIDS_LOG_EVENT and name not in logs.previous_gtids:
        logs.previous_gtids[name] = {(sid["uuid"], sid.get("tag", "")): [(_int(iv["start"]), _int(iv["end"]))
                                                                          for iv in sid["intervals"]]
                                     for sid in body["sids"]}
    elif type_code in GTID_TYPES and name not in logs.first_gtid:
        logs.first_gtid[name] = (body["sid"], body.get("tag", "") or "", _int(body["gno"]))


def _set_text(gtids: dict[tuple[str, str], list[tuple[int, int]]]) -> str:
    from oracle.events.previous_gtids import gtid_set_text
    return gtid_set_text([{"uuid": sid, "tag": tag, "intervals": [{"start": s, "end": e} for s, e in ivs]}
                          for (sid, tag), ivs in gtids.items()])


def _int(v: Any) -> int:
    return int(v["value"]) if isinstance(v, dict) else int(v)
