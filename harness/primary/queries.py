"""COM_QUERY: a table of statement patterns and the function that answers each. The statements are
those replication clients send before a dump (docs/primary.md lists them); anything else gets an
ERR that names the statement, and the connection stays usable."""
from __future__ import annotations

import fnmatch
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from oracle.wire.packets import ErrPacket, OkPacket

from . import catalog, tables
from .gtid_pos import binlog_gtid_pos
from .resultset import ResultSet, Value
from .sqltext import split_top_level
from .client_groups import ClientGroups
from .served import ServedLogs

Reply = ResultSet | OkPacket | ErrPacket

ER_UNKNOWN_SYSTEM_VARIABLE = 1193
ER_PARSE_ERROR = 1064
ER_NOT_SUPPORTED_YET = 1235
ER_NO_SUCH_TABLE = 1146
ER_NO_DB_ERROR = 1046


@dataclass
class QuerySession:
    """What a statement may read or change: the served logs, the variables, the user variables."""
    logs: ServedLogs
    variables: dict[str, Value]
    user: str
    connection_id: int
    user_vars: dict[str, Value] = field(default_factory=dict)
    database: str | None = None
    groups: ClientGroups | None = None  # where this client's dumps read (None: the final definitions)
    status_position: tuple[str, int] | None = None  # ServeOptions.status_position

    def described(self, final: "tables.Table") -> "tables.Table":
        """A table as it was where this client's group reads it (client_groups.py, epochs.py)."""
        if self.groups is None:
            return final
        key = (final.schema.lower(), final.name.lower())
        epoch = self.logs.epochs.epoch_at(key, self.groups.position(self.user, key))
        self.groups.looked_up(self.user, key, epoch)
        return self.logs.epochs.table_at(key, epoch, final) or final


class Unanswerable(Exception):
    """An expression the primary does not evaluate: the statement is refused as a whole."""


# -- expressions --------------------------------------------------------------------------------

_SYSVAR = re.compile(r"@@(?:(?:global|session|local)\.)?`?(\w+)`?$", re.I)
_USERVAR = re.compile(r"@`?(\w+)`?$")
_STRING = re.compile(r"""('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")$""")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?$")
_FUNCTIONS: dict[str, Callable[[QuerySession], Value]] = {
    "version": lambda s: s.variables["version"],
    "unix_timestamp": lambda s: int(time.time()),
    "database": lambda s: s.database,
    "schema": lambda s: s.database,
    "user": lambda s: f"{s.user}@localhost",
    "current_user": lambda s: f"{s.user}@%",
    "connection_id": lambda s: s.connection_id,
    "now": lambda s: time.strftime("%Y-%m-%d %H:%M:%S"),
}
_FUNCTION = re.compile(r"(\w+)\s*\(\s*\)$")


def evaluate(expr: str, s: QuerySession) -> Value:
    expr = expr.strip()
    if m := _SYSVAR.match(expr):
        name = m[1].lower()
        if name not in s.variables:
            raise _Refused(ErrPacket(ER_UNKNOWN_SYSTEM_VARIABLE, f"Unknown system variable '{m[1]}'"))
        return s.variables[name]
    if m := _USERVAR.match(expr):
        return s.user_vars.get(m[1].lower())
    if m := _STRING.match(expr):
        return re.sub(r"\\(.)", r"\1", m[1][1:-1])
    if _NUMBER.match(expr):
        return int(expr) if expr.lstrip("-").isdigit() else expr
    if expr.upper() == "NULL":
        return None
    if (m := _FUNCTION.match(expr)) and m[1].lower() in _FUNCTIONS:
        return _FUNCTIONS[m[1].lower()](s)
    if m := _CONCAT.match(expr):
        return _concat([evaluate(arg, s) for arg in split_top_level(m[1])])
    raise Unanswerable(expr)


_CONCAT = re.compile(r"CONCAT\s*\((.*)\)$", re.I | re.S)


def _concat(values: list[Value]) -> Value:
    """CONCAT(a, b, ...): NULL if any argument is NULL, as the server. MariaDB Connector/J sends
    `set sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES'),session_track_system_variables =
    CONCAT(@@global.session_track_system_variables,',tx_isolation'),...` at every connect."""
    if any(v is None for v in values):
        return None
    return "".join(v.decode() if isinstance(v, bytes) else str(v) for v in values)


class _Refused(Exception):
    def __init__(self, err: ErrPacket) -> None:
        self.err = err


# -- statements ---------------------------------------------------------------------------------

_ALIAS = re.compile(r"(.+?)\s+(?:AS\s+)?(`[^`]+`|'[^']+'|\"[^\"]+\"|\w+)$", re.I | re.S)


def answer_select(s: QuerySession, m: re.Match[str]) -> Reply:
    names, row = [], []
    for item in split_top_level(m["exprs"]):
        alias = _ALIAS.match(item)
        expr, name = (alias[1], alias[2].strip("`'\"")) if alias and not _STRING.match(item) else (item, item)
        try:
            row.append(evaluate(expr, s))
        except Unanswerable:
            if alias:  # "x y" may be an expression with a space, not an alias: try it whole
                row.append(evaluate(item, s))
                name = item
            else:
                raise
        names.append(name)
    return ResultSet(names, [row])


_ASSIGN = re.compile(r"(?:(GLOBAL|SESSION|LOCAL)\s+)?(@@(?:\w+\.)?\w+|@`?\w+`?|\w+)\s*(?::=|=)\s*(.+)$", re.I | re.S)
_SET_NAMES = re.compile(r"(NAMES|CHARACTER\s+SET|CHARSET)\b", re.I)


def answer_set(s: QuerySession, m: re.Match[str]) -> Reply:
    updates: list[tuple[str, bool, Value]] = []
    for item in split_top_level(m["assignments"]):
        if _SET_NAMES.match(item):
            continue
        a = _ASSIGN.match(item)
        if not a:
            raise Unanswerable(item)
        target, value = a[2], evaluate(a[3], s)
        if target.startswith("@@") or not target.startswith("@"):
            updates.append((target.split(".")[-1].lstrip("@").lower(), False, value))
        else:
            updates.append((target[1:].strip("`").lower(), True, value))
    for name, is_user, value in updates:  # all or nothing, like the server
        (s.user_vars if is_user else s.variables)[name] = value
    return OkPacket()


def _like(pattern: str | None, name: str) -> bool:
    if pattern is None:
        return True
    glob = re.sub(r"\\(.)", r"[\1]", pattern).replace("%", "*").replace("_", "?")
    return fnmatch.fnmatchcase(name.lower(), glob.lower())


def answer_set_statement(s: QuerySession, m: re.Match[str]) -> Reply:
    """MariaDB's SET STATEMENT var=value[, ...] FOR statement (10.1.2+; Debezium's MariaDB
    connector prefixes its queries with max_statement_time): the statement's answer. The
    variables it sets last for that statement only, and none of them changes an answer here."""
    return answer(s, m["statement"])


def answer_show_variables(s: QuerySession, m: re.Match[str]) -> Reply:
    pattern = m["like"] if m["like"] is not None else m["name"]
    rows: list[list[Value]] = [[name, "" if v is None else str(v)]
                               for name, v in sorted(s.variables.items()) if _like(pattern, name)]
    return ResultSet(["Variable_name", "Value"], rows)


def answer_show_variables_in(s: QuerySession, m: re.Match[str]) -> Reply:
    """SHOW VARIABLES WHERE Variable_name IN ('a', 'b'): Debezium's form."""
    wanted = {_unquote(n.strip()).lower() for n in split_top_level(m["names"])}
    rows: list[list[Value]] = [[name, "" if v is None else str(v)]
                               for name, v in sorted(s.variables.items()) if name in wanted]
    return ResultSet(["Variable_name", "Value"], rows)


def answer_ok(s: QuerySession, m: re.Match[str]) -> Reply:
    """A statement with nothing to do here (COMMIT, ROLLBACK, BEGIN: the primary holds no data)."""
    return OkPacket()


def answer_set_isolation(s: QuerySession, m: re.Match[str]) -> Reply:
    level = "-".join(m["level"].upper().split())
    s.variables["transaction_isolation"] = level
    if "tx_isolation" in s.variables:
        s.variables["tx_isolation"] = level
    return OkPacket()


def answer_schemata(s: QuerySession, m: re.Match[str]) -> Reply:
    """The schemata with the server's default character set and collation: the primary knows no
    schema's own default (docs/primary.md)."""
    names = [_unquote(n.strip().split(".")[-1]) or "" for n in split_top_level(m["exprs"])]
    known = {"schema_name", "default_character_set_name", "default_collation_name"}
    if any(n.lower() not in known for n in names):
        raise Unanswerable(m["exprs"])
    defaults = {"default_character_set_name": s.variables["character_set_server"],
                "default_collation_name": s.variables["collation_server"]}
    rows = [[db if n.lower() == "schema_name" else defaults[n.lower()] for n in names]
            for db in catalog.database_rows(list(s.logs.tables.values()))]
    return ResultSet([n.upper() for n in names], rows)


def answer_binlog_status(s: QuerySession, m: re.Match[str]) -> Reply:
    """The binlog's end: the last served file's size, or where ServeOptions.status_position puts
    it (stream mode `current`: the served events arrive after the client asked), with the
    executed GTID set there (the Previous_gtids of that file, before any of its transactions)."""
    last = s.logs.files[-1]
    name, position, gtids = last.name, last.size, s.logs.gtid_executed
    if s.status_position is not None:
        name, position = s.status_position
        gtids = lambda: s.logs.previous_gtid_text(name)  # noqa: E731
    if s.logs.flavor == "mariadb":
        return ResultSet(["File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB"], [[name, position, "", ""]])
    return ResultSet(["File", "Position", "Binlog_Do_DB", "Binlog_Ignore_DB", "Executed_Gtid_Set"],
                     [[name, position, "", "", gtids()]])


def answer_binary_logs(s: QuerySession, m: re.Match[str]) -> Reply:
    """Every served file and its size; with a status position (stream mode `current`), the files
    of a server that has just opened that one: those before it, and it at that position."""
    files = [(f.name, f.size) for f in s.logs.files]
    names = [name for name, _ in files]
    if s.status_position is not None and s.status_position[0] in names:
        files = files[:names.index(s.status_position[0])] + [s.status_position]
    if s.logs.flavor == "mariadb":
        return ResultSet(["Log_name", "File_size"], [[n, size] for n, size in files])
    return ResultSet(["Log_name", "File_size", "Encrypted"], [[n, size, "No"] for n, size in files])


ER_ERROR_WHEN_EXECUTING_COMMAND = 1220


def answer_binlog_gtid_pos(s: QuerySession, m: re.Match[str]) -> Reply:
    """MariaDB's SELECT BINLOG_GTID_POS('file', pos): NULL for a file the server does not have."""
    served = next((f for f in s.logs.files if f.name == m["file"]), None)
    value = binlog_gtid_pos(served.path, int(m["pos"])) if served is not None else None
    return ResultSet([m["expr"]], [[value]])


def answer_show_binlog_events(s: QuerySession, m: re.Match[str]) -> Reply:
    """The real server's answer, recorded with the case (case.json `server_events`): each event
    with its start, end, type and Info; a Transaction_payload's events follow it, at its end.
    Files served without that record are refused: the Info texts are the server's own."""
    name = _unquote(m["file"]) if m["file"] else s.logs.files[0].name
    if s.logs.find(name) is None:
        return ErrPacket(ER_ERROR_WHEN_EXECUTING_COMMAND, "Error when executing command SHOW BINLOG EVENTS: "
                         "Could not find target log", "HY000")
    listed = s.logs.server_events.get(name)
    if listed is None:
        return ErrPacket(ER_NOT_SUPPORTED_YET, f"harness serve lists the events of {name} only where a corpus "
                         "case recorded the real server's SHOW BINLOG EVENTS (case.json server_events)", "42000")
    start = 0
    if m["pos"] is not None and int(m["pos"]) > 4:
        start = next((i for i, e in enumerate(listed)
                      if e["pos"] == int(m["pos"]) and e["end_log_pos"] != e["pos"]), -1)
        if start < 0:
            return ErrPacket(ER_ERROR_WHEN_EXECUTING_COMMAND, "Error when executing command SHOW BINLOG EVENTS: "
                             "Wrong offset or I/O error", "HY000")
    rows: list[list[Value]] = [[name, e["pos"], e["type"], e["server_id"], e["end_log_pos"], e["info"]]
                               for e in listed[start:]]
    offset, count = int(m["offset"] or 0), int(m["count"]) if m["count"] is not None else None
    rows = rows[offset:None if count is None else offset + count]
    return ResultSet(["Log_name", "Pos", "Event_type", "Server_id", "End_log_pos", "Info"], rows)


# -- column lookups (harness/primary/tables.py) ---------------------------------------------------

def _unquote(name: str | None) -> str | None:
    return name.strip("`'\"") if name else name


def _table(s: QuerySession, schema: str | None, name: str) -> tables.Table:
    schema = _unquote(schema) or s.database
    if not schema:
        raise _Refused(ErrPacket(ER_NO_DB_ERROR, "No database selected", "3D000"))
    found = s.logs.table(schema, _unquote(name) or "")
    if found is None:
        raise _Refused(ErrPacket(ER_NO_SUCH_TABLE, f"Table '{schema}.{_unquote(name)}' doesn't exist", "42S02"))
    return s.described(found)


def answer_use(s: QuerySession, m: re.Match[str]) -> Reply:
    s.database = _unquote(m["db"])
    return OkPacket()


def answer_show_columns(s: QuerySession, m: re.Match[str]) -> Reply:
    table = _table(s, m["db2"] or m["db"], m["table"])
    full = bool(m["full"])
    rows = [tables.show_columns_row(c, full) for c in table.columns if _like(m["like"], c.name)]
    return ResultSet(tables.SHOW_FULL_COLUMNS if full else tables.SHOW_COLUMNS, rows)


def answer_show_create_table(s: QuerySession, m: re.Match[str]) -> Reply:
    table = _table(s, m["db"], m["table"])
    statement = table.create_statement or tables.rendered_create(table)
    if statement is None:
        return ErrPacket(ER_NOT_SUPPORTED_YET, f"harness serve has no CREATE TABLE for '{table.schema}.{table.name}' "
                         "(only corpus cases record the statement that made a table)", "42000")
    return ResultSet(["Table", "Create Table"], [[table.name, statement]])


_WHERE_EQ = r"(?:`?\w+`?\.)?`?{col}`?\s*=\s*['\"]([^'\"]*)['\"]"


def answer_show_index(s: QuerySession, m: re.Match[str]) -> Reply:
    return ResultSet(tables.SHOW_INDEX, tables.show_index_rows(_table(s, m["db2"] or m["db"], m["table"])))


def _tables_where(s: QuerySession, where: str) -> list[tables.Table]:
    schema = re.search(_WHERE_EQ.format(col="TABLE_SCHEMA"), where, re.I)
    name = re.search(_WHERE_EQ.format(col="TABLE_NAME"), where, re.I)
    return [s.described(t) for (sc, tn), t in sorted(s.logs.tables.items())
            if (schema is None or sc == schema[1].lower()) and (name is None or tn == name[1].lower())]


def answer_information_schema_tables(s: QuerySession, m: re.Match[str]) -> Reply:
    rows = [tables.information_schema_table_row(t) for t in _tables_where(s, m["where"] or "")]
    names = list(tables.information_schema_table_row(tables.Table("", "")))
    return ResultSet(names, [[r[n] for n in names] for r in rows][:int(m["limit"]) if m["limit"] else None])


def answer_information_schema_columns(s: QuerySession, m: re.Match[str]) -> Reply:
    found = _tables_where(s, m["where"] or "")
    rows = [tables.information_schema_row(t, c) for t in found for c in t.columns]
    items = split_top_level(m["exprs"])
    if items == ["*"]:
        names = list(tables.information_schema_row(tables.Table("", ""), tables.Column("", 0, "", "", True)))
        return ResultSet(names, [[r[n] for n in names] for r in rows])
    columns = []
    for item in items:
        alias = _ALIAS.match(item)
        expr, label = (alias[1], _unquote(alias[2])) if alias else (item, item)
        key = (_unquote(expr.split(".")[-1]) or "").upper()
        if key not in tables.information_schema_row(tables.Table("", ""), tables.Column("", 0, "", "", True)):
            raise _Refused(ErrPacket(1054, f"Unknown column '{expr}' in 'field list'", "42S22"))
        columns.append((key, label or expr))
    return ResultSet([label for _, label in columns], [[r[k] for k, _ in columns] for r in rows])


# -- schema listings (harness/primary/catalog.py) -------------------------------------------------

def _schema_tables(s: QuerySession, db: str | None) -> tuple[str, list[tables.Table]]:
    schema = _unquote(db) or s.database
    if not schema:
        raise _Refused(ErrPacket(ER_NO_DB_ERROR, "No database selected", "3D000"))
    return schema, [t for (sc, _), t in sorted(s.logs.tables.items()) if sc == schema.lower()]


def _labelled(name: str, like: str | None) -> str:
    return f"{name} ({like})" if like is not None else name


def answer_show_databases(s: QuerySession, m: re.Match[str]) -> Reply:
    d = catalog.dialect(s.logs.flavor, s.logs.version)
    rows = [[db] for db in catalog.database_rows(list(s.logs.tables.values())) if _like(m["like"], db)]
    return ResultSet([_labelled("Database", m["like"])], rows, catalog.databases_columns(d))


def answer_show_tables(s: QuerySession, m: re.Match[str]) -> Reply:
    d = catalog.dialect(s.logs.flavor, s.logs.version)
    schema, found = _schema_tables(s, m["db"])
    full = bool(m["full"])
    if m["kind"] is not None and not _like(m["kind"], "BASE TABLE"):
        found = []
    rows = [[t.name, "BASE TABLE"][:2 if full else 1] for t in found if _like(m["like"], t.name)]
    names = [_labelled(f"Tables_in_{schema}", m["like"])] + (["Table_type"] if full else [])
    return ResultSet(names, rows, catalog.tables_columns(d, full))


def answer_show_table_status(s: QuerySession, m: re.Match[str]) -> Reply:
    d = catalog.dialect(s.logs.flavor, s.logs.version)
    _, found = _schema_tables(s, m["db"])
    names, definitions = catalog.status_columns(d, where=m["name"] is not None)
    rows = [catalog.status_row(t, d) for t in found
            if _like(m["like"], t.name) and (m["name"] is None or m["name"].lower() == t.name.lower())]
    return ResultSet(names, rows, definitions)


def _mysql_at_least(v: tuple[int, int, int]) -> Callable[[ServedLogs], bool]:
    return lambda logs: logs.flavor == "mysql" and logs.version >= v


def _mysql_before(v: tuple[int, int, int]) -> Callable[[ServedLogs], bool]:
    return lambda logs: logs.flavor == "mariadb" or logs.version < v


def _mariadb_at_least(v: tuple[int, int, int]) -> Callable[[ServedLogs], bool]:
    return lambda logs: logs.flavor == "mariadb" and logs.version >= v


def _always(logs: ServedLogs) -> bool:
    return True


@dataclass(frozen=True)
class Statement:
    pattern: re.Pattern[str]
    answer: Callable[[QuerySession, re.Match[str]], Reply]
    exists: Callable[[ServedLogs], bool] = _always  # does the served server version have it?
    # where a version without it stops parsing, as a word index: the ERR 1064 quotes the text
    # from there ("near 'master status'" from a real 9.7, "near 'LOG STATUS'" from a real 10.11)
    refused_at: int = 1


def _p(regex: str) -> re.Pattern[str]:
    return re.compile(regex, re.I | re.S)


STATEMENTS: tuple[Statement, ...] = (
    Statement(_p(r"SET\s+(?:SESSION\s+)?TRANSACTION\s+ISOLATION\s+LEVEL\s+(?P<level>READ\s+UNCOMMITTED|READ\s+COMMITTED"
                 r"|REPEATABLE\s+READ|SERIALIZABLE)"), answer_set_isolation),
    Statement(_p(r"SET\s+STATEMENT\s+(?P<assignments>.+?)\s+FOR\s+(?P<statement>.+)"), answer_set_statement,
              _mariadb_at_least((10, 1, 2))),
    Statement(_p(r"SET\s+(?P<assignments>.+)"), answer_set),
    Statement(_p(r"COMMIT|ROLLBACK|BEGIN|START\s+TRANSACTION"), answer_ok),
    Statement(_p(r"SHOW\s+(?:GLOBAL\s+|SESSION\s+)?VARIABLES\s+WHERE\s+Variable_name\s+IN\s*\((?P<names>[^)]*)\)"),
              answer_show_variables_in),
    Statement(_p(r"SELECT\s+(?P<exprs>[\w\s,.]+?)\s+FROM\s+`?information_schema`?\.`?schemata`?"), answer_schemata),
    Statement(_p(r"SELECT\s+(?P<expr>BINLOG_GTID_POS\s*\(\s*'(?P<file>[^']*)'\s*,\s*(?P<pos>\d+)\s*\))"),
              answer_binlog_gtid_pos, _mariadb_at_least((10, 0, 2))),
    Statement(_p(r"SELECT\s+(?P<exprs>(?:(?!\bFROM\b).)+?)(?:\s+LIMIT\s+\d+)?"), answer_select),
    Statement(_p(r"SHOW\s+(?:GLOBAL\s+|SESSION\s+)?VARIABLES(?:\s+LIKE\s+'(?P<like>[^']*)'"
                 r"|\s+WHERE\s+Variable_name\s*=\s*'(?P<name>[^']*)')?"), answer_show_variables),
    # SHOW MASTER STATUS went away in MySQL 8.4; SHOW BINARY LOG STATUS came in 8.2.
    Statement(_p(r"SHOW\s+MASTER\s+STATUS"), answer_binlog_status, _mysql_before((8, 4, 0))),
    # MariaDB took MySQL's name too: a real 11.8 answers it, 10.5 and 10.11 give ERR 1064 (the
    # control experiment of docs/cdc.md found it: Debezium asks it of any version from 8.2 up).
    Statement(_p(r"SHOW\s+BINARY\s+LOG\s+STATUS"), answer_binlog_status,
              lambda logs: _mysql_at_least((8, 2, 0))(logs) or _mariadb_at_least((11, 8, 0))(logs), refused_at=2),
    # (SHOW BINARY LOGS and SHOW BINLOG EVENTS parse: the parser stops at the third word)
    Statement(_p(r"SHOW\s+BINLOG\s+STATUS"), answer_binlog_status, _mariadb_at_least((10, 5, 2)), refused_at=2),
    Statement(_p(r"SHOW\s+(?:BINARY|MASTER)\s+LOGS"), answer_binary_logs),
    Statement(_p(r"SHOW\s+BINLOG\s+EVENTS(?:\s+IN\s+(?P<file>'[^']*'|\"[^\"]*\"))?(?:\s+FROM\s+(?P<pos>\d+))?"
                 r"(?:\s+LIMIT\s+(?:(?P<offset>\d+)\s*,\s*)?(?P<count>\d+))?"), answer_show_binlog_events),
    Statement(_p(r"USE\s+(?P<db>`[^`]+`|\w+)"), answer_use),
    Statement(_p(r"SHOW\s+(?P<full>FULL\s+)?(?:COLUMNS|FIELDS)\s+(?:FROM|IN)\s+(?:(?P<db>`[^`]+`|\w+)\.)?"
                 r"(?P<table>`[^`]+`|\w+)(?:\s+(?:FROM|IN)\s+(?P<db2>`[^`]+`|\w+))?(?:\s+LIKE\s+'(?P<like>[^']*)')?"),
              answer_show_columns),
    Statement(_p(r"SHOW\s+(?:INDEX|INDEXES|KEYS)\s+(?:FROM|IN)\s+(?:(?P<db>`[^`]+`|\w+)\.)?(?P<table>`[^`]+`|\w+)"
                 r"(?:\s+(?:FROM|IN)\s+(?P<db2>`[^`]+`|\w+))?"), answer_show_index),
    Statement(_p(r"SELECT\s+\*\s+FROM\s+`?information_schema`?\.`?tables`?(?:\s+WHERE\s+(?P<where>.+?))?"
                 r"(?:\s+LIMIT\s+(?P<limit>\d+))?"), answer_information_schema_tables),
    Statement(_p(r"SHOW\s+(?:DATABASES|SCHEMAS)(?:\s+LIKE\s+'(?P<like>[^']*)')?"), answer_show_databases),
    Statement(_p(r"SHOW\s+(?P<full>FULL\s+)?TABLES(?:\s+(?:FROM|IN)\s+(?P<db>`[^`]+`|\w+))?"
                 r"(?:\s+LIKE\s+'(?P<like>[^']*)'|\s+WHERE\s+`?Table_type`?\s*(?:=|LIKE)\s*'(?P<kind>[^']*)')?"),
              answer_show_tables),
    Statement(_p(r"SHOW\s+TABLE\s+STATUS(?:\s+(?:FROM|IN)\s+(?P<db>`[^`]+`|\w+))?"
                 r"(?:\s+LIKE\s+'(?P<like>[^']*)'|\s+WHERE\s+`?Name`?\s*=\s*'(?P<name>[^']*)')?"),
              answer_show_table_status),
    Statement(_p(r"SHOW\s+CREATE\s+TABLE\s+(?:(?P<db>`[^`]+`|\w+)\.)?(?P<table>`[^`]+`|\w+)"),
              answer_show_create_table),
    Statement(_p(r"SELECT\s+(?P<exprs>.+?)\s+FROM\s+`?information_schema`?\.`?columns`?"
                 r"(?:\s+(?:AS\s+)?\w+)?(?:\s+WHERE\s+(?P<where>.+?))?(?:\s+ORDER\s+BY\s+[\w.`]+(?:\s+ASC)?)?"),
              answer_information_schema_columns),
)

_COMMENT = re.compile(r"/\*(?!!).*?\*/|--[ \t][^\n]*|#[^\n]*", re.S)


def normalize(sql: str) -> str:
    """Comments out, whitespace collapsed, no trailing semicolon."""
    return re.sub(r"\s+", " ", _COMMENT.sub(" ", sql)).strip().rstrip(";").strip()


# What clients send before a dump is short. Longer statements are not parsed at all: the patterns
# are linear on their own, but comment stripping and the information_schema pattern are quadratic
# on crafted input, which this bound keeps to milliseconds.
MAX_STATEMENT = 16 * 1024


def _parse_error(s: QuerySession, sql: str, refused_at: int) -> ErrPacket:
    """A statement this version does not have, refused as its parser refuses it: the text from
    the word it stops at, as the client sent it, and the server's own name for itself."""
    words = sql.strip().rstrip(";").split(None, refused_at)
    near = words[refused_at] if len(words) > refused_at else ""
    server = "MariaDB" if s.logs.flavor == "mariadb" else "MySQL"
    return ErrPacket(ER_PARSE_ERROR, "You have an error in your SQL syntax; check the manual that corresponds to "
                     f"your {server} server version for the right syntax to use near '{near[:80]}' at line 1",
                     "42000")


def answer(s: QuerySession, sql: str) -> Reply:
    if len(sql) > MAX_STATEMENT:
        return ErrPacket(ER_NOT_SUPPORTED_YET, f"harness serve does not answer this statement of {len(sql)} "
                         f"characters: '{sql[:80]}...'", "42000")
    text = normalize(sql)
    for st in STATEMENTS:
        m = st.pattern.fullmatch(text)
        if not m:
            continue
        if not st.exists(s.logs):
            return _parse_error(s, sql, st.refused_at)
        try:
            return st.answer(s, m)
        except _Refused as r:
            return r.err
        except Unanswerable:
            break
    return ErrPacket(ER_NOT_SUPPORTED_YET, f"harness serve does not answer this statement: '{text[:200]}' "
                     "(it answers what replication clients send before a dump; see docs/primary.md)", "42000")
