"""The schema a bare binlog's own DDL gives its tables: the Query events' CREATE / ALTER / DROP /
RENAME TABLE replayed in file order, so the column lookups of a served file that no corpus case
describes answer with the names, types and ENUM/SET members the server had.

Only what the statements say is kept. A statement that changes a table in a way this replay does
not follow (CREATE ... LIKE / SELECT, an ALTER clause it does not read) makes the table unknown,
and the lookups then answer as a server does for a table it does not have: never a guess. A
dropped table keeps its definition as of the DROP: the rows a client reads before the DROP were
written with it (docs/primary.md, "the schema at the time")."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .sqltext import outside_quotes, split_top_level
from .tables import Column, Table, member_list

Key = tuple[str, str]

_IDENT = r"(?:`(?:[^`]|``)+`|[\w$]+)"
_QUALIFIED = rf"(?:(?P<db>{_IDENT})\s*\.\s*)?(?P<table>{_IDENT})"
_CREATE = re.compile(rf"CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?{_QUALIFIED}\s*"
                     r"(?P<rest>.*)$", re.I | re.S)
_ALTER = re.compile(rf"ALTER\s+(?:ONLINE\s+|IGNORE\s+)*TABLE\s+{_QUALIFIED}\s*(?P<rest>.*)$", re.I | re.S)
_DROP = re.compile(r"DROP\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+EXISTS\s+)?(?P<names>.+?)(?:\s+(?:RESTRICT|CASCADE))?\s*$",
                   re.I | re.S)
_RENAME = re.compile(r"RENAME\s+TABLES?\s+(?P<pairs>.+)$", re.I | re.S)
_RENAME_TO = re.compile(rf"(?:TO\s+|AS\s+)?{_QUALIFIED}\s*", re.I)
_DDL_START = re.compile(r"(?:\s|/\*.*?\*/|--[ \t][^\n]*\n|#[^\n]*\n)*(?:CREATE|ALTER|DROP|RENAME)\b",
                        re.I | re.S)
_COMMENTS = re.compile(r"/\*(?!!).*?\*/|--[ \t][^\n]*|#[^\n]*", re.S)
_VERSIONED = re.compile(r"/\*!\d*\s*(.*?)\*/", re.S)  # /*!50100 ... */: the server ran what is inside

# The start of a table element that is not a column (an index, a constraint, a period).
_NOT_COLUMN = re.compile(r"(?:PRIMARY|KEY|INDEX|UNIQUE|CONSTRAINT|FOREIGN|FULLTEXT|SPATIAL|CHECK)\b"
                         r"|PERIOD\s+FOR\b|VECTOR\s+(?:INDEX|KEY)\b", re.I)
# Type spellings and their information_schema names.
_SYNONYMS = {"integer": "int", "int4": "int", "int8": "bigint", "int3": "mediumint", "int2": "smallint",
             "int1": "tinyint", "middleint": "mediumint", "dec": "decimal", "numeric": "decimal",
             "fixed": "decimal", "real": "double", "float8": "double", "float4": "float",
             "character": "char", "nchar": "char", "nvarchar": "varchar", "long": "mediumtext",
             "double precision": "double", "character varying": "varchar", "national char": "char",
             "national varchar": "varchar", "long varchar": "mediumtext", "long varbinary": "mediumblob"}
_TYPE = re.compile(r"(?P<type>double\s+precision|character\s+varying|national\s+(?:var)?char|long\s+var(?:char|binary)"
                   r"|\w+)\s*(?P<args>\((?:[^()']|'(?:[^']|'')*')*\))?(?P<rest>.*)$", re.I | re.S)
_CHARSET = re.compile(r"\b(?:CHARACTER\s+SET|CHARSET)\s*=?\s*`?(\w+)`?", re.I)
_COLLATE = re.compile(r"\bCOLLATE\s*=?\s*`?(\w+)`?", re.I)
_TEXTUAL = {"char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set"}
_BINARY_TWIN = {"char": "binary", "varchar": "varbinary", "tinytext": "tinyblob", "text": "blob",
                "mediumtext": "mediumblob", "longtext": "longblob"}  # CHARACTER SET binary
_NO_FSP_ZERO = {"time", "datetime", "timestamp"}  # TIME(0) is listed as time
# The display widths MariaDB and MySQL before 8.0.19 list for integer types written without one
# (signed, unsigned); MySQL 8.0.19 and later list none.
_MARIADB_WIDTHS = {"tinyint": (4, 3), "smallint": (6, 5), "mediumint": (9, 8), "int": (11, 10),
                   "bigint": (20, 20)}


@dataclass(frozen=True)
class Dialect:
    """How the server that wrote the binlog lists a column type (information_schema.COLUMN_TYPE):
    MariaDB, and MySQL before 8.0.19, list integer display widths; MySQL 8.0 calls
    GEOMETRYCOLLECTION geomcollection."""
    mariadb: bool = False
    widths: bool = False
    geomcollection: bool = True

    @classmethod
    def of(cls, flavor: str, version: tuple[int, int, int]) -> "Dialect":
        mariadb = flavor == "mariadb"
        return cls(mariadb, mariadb or version < (8, 0, 19), not mariadb and version >= (8, 0, 0))

    def column_type(self, data_type: str, args: str, unsigned: bool) -> tuple[str, str]:
        """(DATA_TYPE, COLUMN_TYPE) of a type as written, before UNSIGNED / ZEROFILL."""
        if data_type in _NO_FSP_ZERO and args == "(0)":
            args = ""
        if self.widths:
            if data_type in _MARIADB_WIDTHS and not args:
                args = f"({_MARIADB_WIDTHS[data_type][unsigned]})"
            if data_type == "year" and not args:
                args = "(4)"
        elif data_type in _MARIADB_WIDTHS and args != "(1)":
            args = ""  # display widths are gone since MySQL 8.0.19 (TINYINT(1) stays)
        if self.mariadb and data_type == "json":  # MariaDB's JSON is an alias of LONGTEXT
            return "longtext", "longtext"
        if self.geomcollection and data_type == "geometrycollection":
            data_type = "geomcollection"
        return data_type, data_type + args


class Unfollowed(Exception):
    """A statement this replay does not read: the table it touches becomes unknown."""


def _name(ident: str) -> str:
    return ident[1:-1].replace("``", "`") if ident.startswith("`") else ident


def _string(literal: str) -> str:
    if len(literal) < 2 or literal[0] not in "'\"" or literal[-1] != literal[0]:
        raise Unfollowed(literal)
    q = literal[0]
    return re.sub(r"\\(.)", r"\1", literal[1:-1].replace(q + q, q))


def _members(args: str) -> list[str]:
    return [_string(m) for m in split_top_level(args[1:-1])]


def column_from_definition(text: str, ordinal: int, table_charset: str | None, dialect: Dialect) -> Column:
    """One column of CREATE TABLE / ALTER TABLE ADD, as information_schema would list it."""
    m = re.match(rf"({_IDENT})\s+(.*)$", text.strip(), re.S)
    if m is None:
        raise Unfollowed(text)
    t = _TYPE.match(m[2])
    if t is None:
        raise Unfollowed(text)
    base = re.sub(r"\s+", " ", t["type"].lower())
    data_type = {"bool": "tinyint", "boolean": "tinyint", "serial": "bigint"}.get(base, _SYNONYMS.get(base, base))
    rest, args = t["rest"], t["args"] or ""
    words = rest.upper()
    charset = _CHARSET.search(rest)
    if charset and charset[1].lower() == "binary" and data_type in _BINARY_TWIN:
        data_type, charset = _BINARY_TWIN[data_type], None
    if data_type in ("enum", "set"):
        column_type = f"{data_type}({member_list(_members(args))})"
    elif base in ("bool", "boolean"):
        column_type = "tinyint(1)"
    else:
        data_type, column_type = dialect.column_type(data_type, re.sub(r"\s+", "", args),
                                                     bool(re.search(r"\bUNSIGNED\b", words)))
    for flag in ("UNSIGNED", "ZEROFILL"):
        if re.search(rf"\b{flag}\b", words):
            column_type += " " + flag.lower()
    coll = _COLLATE.search(rest)
    cs: str | None = None
    if data_type in _TEXTUAL:
        cs = charset[1].lower() if charset else (coll[1].split("_")[0].lower() if coll else table_charset)
    primary = bool(re.search(r"\bPRIMARY\s+KEY\b", words)) or base == "serial"
    nullable = not (re.search(r"\bNOT\s+NULL\b", words) or primary or base == "serial")
    extra = "auto_increment" if re.search(r"\bAUTO_INCREMENT\b", words) or base == "serial" else ""
    return Column(_name(m[1]), ordinal, data_type, column_type, nullable, "PRI" if primary else "",
                  cs, coll[1].lower() if coll else None, extra=extra)


def _primary_key(element: str) -> list[str] | None:
    m = re.match(r"(?:CONSTRAINT\s+(?:" + _IDENT + r"\s+)?)?PRIMARY\s+KEY\s*(?:\w+\s*)?\((.*)\)", element, re.I | re.S)
    if m is None:
        return None
    return [_name(re.match(_IDENT, p.strip())[0]) for p in split_top_level(m[1])]  # type: ignore[index]


def _mark_key(columns: list[Column], names: list[str]) -> None:
    wanted = {n.lower() for n in names}
    for c in columns:
        if c.name.lower() in wanted:
            c.key, c.nullable = "PRI", False


_INDEX = re.compile(rf"(?P<unique>UNIQUE\s+)?(?:INDEX|KEY)?\s*(?:{_IDENT}\s*)?\((?P<cols>.*)\)", re.I | re.S)


def _mark_index(columns: list[Column], element: str) -> None:
    """COLUMN_KEY of an index's first column: UNI for a one-column unique index, else MUL."""
    m = _INDEX.fullmatch(element.strip())
    if m is None:
        return
    parts = [re.match(_IDENT, p.strip()) for p in split_top_level(m["cols"])]
    first = parts[0] if parts else None
    if first is None:
        return
    key = "UNI" if m["unique"] and len(parts) == 1 else "MUL"
    for c in columns:
        if c.name.lower() == _name(first[0]).lower() and not c.key:
            c.key = key


def _table_charset(options: str) -> str | None:
    m = _CHARSET.search(options)
    if m:
        return m[1].lower()
    c = _COLLATE.search(options)
    return c[1].split("_")[0].lower() if c else None


def _renumber(columns: list[Column]) -> list[Column]:
    return [replace(c, ordinal=i) for i, c in enumerate(columns, 1)]


@dataclass
class SchemaReplay:
    """The tables of a binlog as its DDL left them, (schema, table) lower case -> Table or None
    (None: the DDL touched the table in a way not followed; its lookups answer 'no such table')."""
    dialect: Dialect = Dialect()
    tables: dict[Key, Table | None] = field(default_factory=dict)
    charsets: dict[Key, str | None] = field(default_factory=dict)
    # the tables the last apply() gave a new definition (or made unknown): each starts an epoch
    changed: list[Key] = field(default_factory=list)

    def _set(self, key: Key, table: Table | None) -> None:
        self.tables[key] = table
        self.changed.append(key)

    def apply(self, db: str | None, sql: str) -> None:
        self.changed = []
        if not _DDL_START.match(sql):
            return  # BEGIN, COMMIT, DML: most Query events
        text = _COMMENTS.sub(" ", _VERSIONED.sub(r" \1 ", sql)).strip().rstrip(";").strip()
        for pattern, handler in ((_CREATE, self._create), (_ALTER, self._alter), (_DROP, self._drop),
                                 (_RENAME, self._rename)):
            m = pattern.match(text)
            if m is not None:
                handler(db, m)
                return

    @staticmethod
    def _key(db: str | None, m: re.Match[str] | None) -> tuple[str, str]:
        """(schema, table) as written, the statement's default database where it names none."""
        if m is None:
            raise Unfollowed("not a table name")
        schema, name = (_name(m["db"]) if m["db"] else db), _name(m["table"])
        if not schema:
            raise Unfollowed("no database")
        return schema, name

    def _create(self, db: str | None, m: re.Match[str]) -> None:
        schema, name = self._key(db, m)
        key = (schema.lower(), name.lower())
        rest = m["rest"]
        if not rest.startswith("("):
            self._set(key, None)  # CREATE ... LIKE / AS SELECT: the columns are not in the statement
            return
        depth, end = 0, -1
        for i, ch in outside_quotes(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and ch == ")":
                end = i
                break
        options = rest[end + 1:]
        if end < 0 or re.match(r"\s*(?:AS\s+)?SELECT\b", options, re.I):
            self._set(key, None)
            return
        charset = _table_charset(options)
        try:
            columns: list[Column] = []
            indexes: list[str] = []
            for element in split_top_level(rest[1:end]):
                if _NOT_COLUMN.match(element):
                    indexes.append(element)
                    continue
                columns.append(column_from_definition(element, len(columns) + 1, charset, self.dialect))
            for element in indexes:
                _mark_key(columns, _primary_key(element) or [])
            for element in indexes:
                _mark_index(columns, element)
        except Unfollowed:
            self._set(key, None)
            return
        self._set(key, Table(schema, name, columns, create_statement=m[0]))
        self.charsets[key] = charset

    def _alter(self, db: str | None, m: re.Match[str]) -> None:
        schema, name = self._key(db, m)
        key = (schema.lower(), name.lower())
        table = self.tables.get(key)
        if table is None:
            return  # not created in this binlog (or already unknown): nothing is known of it
        try:
            self._alter_clauses(key, table, m["rest"])
        except Unfollowed:
            self._set(key, None)

    def _alter_clauses(self, key: Key, table: Table, clauses: str) -> None:
        columns = [replace(c) for c in table.columns]  # the earlier epoch keeps its own (epochs.py)
        new_key = (table.schema, table.name)
        for clause in split_top_level(clauses):
            head = clause.split(None, 1)
            verb = head[0].upper() if head else ""
            body = head[1] if len(head) > 1 else ""
            if verb == "ADD":
                self._add(columns, body, self.charsets.get(key))
            elif verb == "DROP":
                _drop_column(columns, body)
            elif verb in ("MODIFY", "CHANGE"):
                _change(columns, body, verb == "CHANGE", self.charsets.get(key), self.dialect)
            elif verb == "RENAME" and (to := _RENAME_TO.fullmatch(body)):
                new_key = self._key(table.schema, to)
            elif verb in ("ENGINE", "ROW_FORMAT", "AUTO_INCREMENT", "COMMENT", "ALGORITHM", "LOCK", "FORCE",
                          "KEY_BLOCK_SIZE", "STATS_PERSISTENT", "COMPRESSION") \
                    or re.match(r"(?:ADD|DROP)\s+(?:INDEX|KEY|UNIQUE|FULLTEXT|SPATIAL|FOREIGN|CONSTRAINT|CHECK)\b",
                                clause, re.I):
                continue
            else:
                raise Unfollowed(clause)
        # an altered table keeps the CREATE TABLE that made it, what SHOW CREATE TABLE answers
        # (docs/primary.md: Debezium, answered a rendering of the final definition, ignores the
        # binlog's CREATE of a table it already has and replays the ALTER onto the final one);
        # a renamed one has none: that statement names another table
        statement = table.create_statement if new_key == (table.schema, table.name) else None
        changed = Table(new_key[0], new_key[1], _renumber(columns), create_statement=statement)
        del self.tables[key]
        lower = (new_key[0].lower(), new_key[1].lower())
        self._set(lower, changed)
        self.charsets[lower] = self.charsets.pop(key, None)

    def _add(self, columns: list[Column], body: str, charset: str | None) -> None:
        keys = _primary_key(body)
        if keys is not None:
            _mark_key(columns, keys)
            return
        if re.match(r"(?:INDEX|KEY|UNIQUE|FULLTEXT|SPATIAL|FOREIGN|CONSTRAINT|CHECK)\b", body, re.I):
            _mark_index(columns, body)
            return
        body = re.sub(r"^COLUMN\s+", "", body, flags=re.I)
        if body.startswith("("):
            raise Unfollowed(body)
        body, where = _placement(body)
        _place(columns, column_from_definition(body, 0, charset, self.dialect), where)

    def _drop(self, db: str | None, m: re.Match[str]) -> None:
        """Nothing changes: the definition stays, the rows written before the DROP were written
        with it (a later CREATE of the name replaces it)."""

    def _rename(self, db: str | None, m: re.Match[str]) -> None:
        for pair in split_top_level(m["pairs"]):
            r = re.fullmatch(rf"(?P<src>{_IDENT}(?:\s*\.\s*{_IDENT})?)\s+TO\s+(?P<dst>{_IDENT}(?:\s*\.\s*{_IDENT})?)",
                             pair.strip(), re.I | re.S)
            if r is None:
                return
            src = self._key(db, re.fullmatch(_QUALIFIED, r["src"]))
            dst = self._key(db, re.fullmatch(_QUALIFIED, r["dst"]))
            old = self.tables.pop((src[0].lower(), src[1].lower()), None)
            if old is not None:
                self._set((dst[0].lower(), dst[1].lower()), Table(dst[0], dst[1], old.columns))


def _placement(body: str) -> tuple[str, str | None]:
    """A column definition without its FIRST / AFTER x; where: None (last), '' (first) or x."""
    m = re.search(rf"\s+(?:FIRST|AFTER\s+({_IDENT}))\s*$", body, re.I)
    if m is None:
        return body, None
    return body[:m.start()], _name(m[1]) if m[1] else ""


def _place(columns: list[Column], column: Column, where: str | None) -> None:
    if where is None:
        columns.append(column)
    elif where == "":
        columns.insert(0, column)
    else:
        at = next((i for i, c in enumerate(columns) if c.name.lower() == where.lower()), None)
        if at is None:
            raise Unfollowed(f"AFTER {where}")
        columns.insert(at + 1, column)


def _index(columns: list[Column], name: str) -> int:
    at = next((i for i, c in enumerate(columns) if c.name.lower() == name.lower()), None)
    if at is None:
        raise Unfollowed(name)
    return at


def _drop_column(columns: list[Column], body: str) -> None:
    if re.match(r"(?:INDEX|KEY|FOREIGN|CONSTRAINT|CHECK)\b", body, re.I):
        return
    if re.match(r"PRIMARY\s+KEY\b", body, re.I):
        for c in columns:
            c.key = ""
        return
    m = re.fullmatch(rf"(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?({_IDENT})", body.strip(), re.I)
    if m is None:
        raise Unfollowed(body)
    del columns[_index(columns, _name(m[1]))]


def _change(columns: list[Column], body: str, renames: bool, charset: str | None, dialect: Dialect) -> None:
    body = re.sub(r"^COLUMN\s+", "", body, flags=re.I)
    old = re.match(_IDENT, body)
    if old is None:
        raise Unfollowed(body)
    at = _index(columns, _name(old[0]))
    definition = body[old.end():].strip() if renames else body
    definition, where = _placement(definition)
    column = column_from_definition(definition, 0, charset, dialect)
    if columns[at].key == "PRI":
        column.key, column.nullable = "PRI", False
    del columns[at]
    if where is None:
        columns.insert(at, column)
    else:
        _place(columns, column, where)
