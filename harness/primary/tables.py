"""The column lookups CDC clients make before they decode rows (information_schema.COLUMNS,
SHOW [FULL] COLUMNS, SHOW CREATE TABLE): the tables as the server had them while it wrote the
served binlogs. Their sources, first found first (harness/primary/served.py): a corpus case's
record of the real server's schema (case.json `tables`: table_from_case), the binlog's own DDL
(harness/primary/ddl.py), and a Table_map that names every column and every ENUM/SET member
(binlog_row_metadata=FULL: table_from_map). A Table_map without names (MINIMAL) says too little:
no names or members are ever made up, and a table no source describes is a table the server
does not have. What a source does not say is NULL."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

# Type codes (include/field_types.h)
TINY, SHORT, LONG, FLOAT, DOUBLE, TIMESTAMP, LONGLONG, INT24 = 1, 2, 3, 4, 5, 7, 8, 9
DATE, TIME, DATETIME, YEAR, NEWDATE, VARCHAR, BIT = 10, 11, 12, 13, 14, 15, 16
TIMESTAMP2, DATETIME2, TIME2, VECTOR = 17, 18, 19, 242
JSON, NEWDECIMAL, ENUM, SET, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB = 245, 246, 247, 248, 249, 250, 251, 252
VAR_STRING, STRING, GEOMETRY = 253, 254, 255
BINARY_CHARSET = 63

# Collation id -> (character set, collation, bytes per character), for the ids servers write here.
_COLLATIONS: dict[int, tuple[str, str, int]] = {
    8: ("latin1", "latin1_swedish_ci", 1), 47: ("latin1", "latin1_bin", 1),
    33: ("utf8mb3", "utf8mb3_general_ci", 3), 83: ("utf8mb3", "utf8mb3_bin", 3),
    45: ("utf8mb4", "utf8mb4_general_ci", 4), 46: ("utf8mb4", "utf8mb4_bin", 4),
    63: ("binary", "binary", 1), 255: ("utf8mb4", "utf8mb4_0900_ai_ci", 4),
    2048: ("utf8mb3", "utf8mb3_uca1400_ai_ci", 3), 2304: ("utf8mb4", "utf8mb4_uca1400_ai_ci", 4),  # MariaDB 11
}


def collation(cid: int | None) -> tuple[str | None, str | None, int | None]:
    if cid is None:
        return None, None, None
    if cid in _COLLATIONS:
        return _COLLATIONS[cid]
    if 192 <= cid <= 215:
        return "utf8mb3", None, 3
    if 224 <= cid <= 247 or 255 <= cid <= 323:
        return "utf8mb4", None, 4
    if 2048 <= cid < 2304:  # MariaDB's UCA 14.0 collations, by character set
        return "utf8mb3", None, 3
    if 2304 <= cid < 2560:
        return "utf8mb4", None, 4
    return None, None, None


@dataclass
class Column:
    name: str
    ordinal: int
    data_type: str
    column_type: str
    nullable: bool
    key: str = ""
    charset: str | None = None
    collation: str | None = None
    char_length: int | None = None
    octet_length: int | None = None
    default: str | None = None
    extra: str = ""


@dataclass
class Table:
    schema: str
    name: str
    columns: list[Column] = field(default_factory=list)
    create_statement: str | None = None


def _int_type(base: str) -> Callable[[int, bool], tuple[str, str]]:
    return lambda meta, unsigned: (base, base + (" unsigned" if unsigned else ""))


_NUMERIC: dict[int, Callable[[int, bool], tuple[str, str]]] = {
    TINY: _int_type("tinyint"), SHORT: _int_type("smallint"), INT24: _int_type("mediumint"),
    LONG: _int_type("int"), LONGLONG: _int_type("bigint"),
    FLOAT: _int_type("float"), DOUBLE: _int_type("double"),
    NEWDECIMAL: lambda meta, u: ("decimal", f"decimal({meta >> 8},{meta & 0xFF})" + (" unsigned" if u else "")),
    YEAR: lambda meta, u: ("year", "year"), DATE: lambda meta, u: ("date", "date"),
    NEWDATE: lambda meta, u: ("date", "date"),
    TIME: lambda meta, u: ("time", "time"), DATETIME: lambda meta, u: ("datetime", "datetime"),
    TIMESTAMP: lambda meta, u: ("timestamp", "timestamp"),
    TIME2: lambda meta, u: ("time", f"time({meta})" if meta else "time"),
    DATETIME2: lambda meta, u: ("datetime", f"datetime({meta})" if meta else "datetime"),
    TIMESTAMP2: lambda meta, u: ("timestamp", f"timestamp({meta})" if meta else "timestamp"),
    BIT: lambda meta, u: ("bit", f"bit({(meta >> 8) * 8 + (meta & 0xFF)})"),
    JSON: lambda meta, u: ("json", "json"), GEOMETRY: lambda meta, u: ("geometry", "geometry"),
    VECTOR: lambda meta, u: ("vector", "vector"),
}
_BLOBS = {1: "tiny", 2: "", 3: "medium", 4: "long"}


def _string_real_type(meta: int) -> tuple[int, int]:
    """MYSQL_TYPE_STRING metadata: the real type (CHAR, ENUM, SET) and the length in bytes."""
    real, low = meta >> 8, meta & 0xFF
    if (real & 0x30) != 0x30:  # lengths above 255 borrow two bits of the type byte
        return real | 0x30, (((real & 0x30) ^ 0x30) << 4) | low
    return real, low


def member_list(vals: list[str]) -> str:
    """ENUM/SET members as COLUMN_TYPE lists them."""
    return ",".join("'" + v.replace("'", "''") + "'" for v in vals)


class _Metadata:
    """Table_map optional metadata, indexed as the server writes it (per column, per numeric
    column, per character column, per ENUM/SET column)."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.fields = {o["name"]: o["value"] for o in body.get("optional_metadata") or []}

    def names(self) -> list[str] | None:
        return self.fields.get("COLUMN_NAME")

    def signedness(self) -> list[bool]:
        return list(self.fields.get("SIGNEDNESS") or [])

    def charsets(self, key_default: str, key_columns: str, count: int) -> list[int | None]:
        if key_columns in self.fields:
            return list(self.fields[key_columns])
        default = self.fields.get(key_default)
        if not default:
            return [None] * count
        out: list[int | None] = [default["default"]] * count
        for index, cid in default.get("pairs", []):
            if 0 <= index < count:
                out[index] = cid
        return out

    def primary_key(self) -> set[int]:
        if "SIMPLE_PRIMARY_KEY" in self.fields:
            return set(self.fields["SIMPLE_PRIMARY_KEY"])
        return {p[0] if isinstance(p, list) else p for p in self.fields.get("PRIMARY_KEY_WITH_PREFIX", [])}


def _kinds(types: list[int], metas: list[int]) -> list[str]:
    """numeric / char / enumset / other, as the optional metadata counts columns."""
    out = []
    for t, m in zip(types, metas):
        if t == STRING and _string_real_type(m)[0] in (ENUM, SET):
            out.append("enumset")
        elif t in (STRING, VARCHAR, VAR_STRING, BLOB):
            out.append("char")
        elif t in (TINY, SHORT, INT24, LONG, LONGLONG, FLOAT, DOUBLE, NEWDECIMAL, YEAR):
            out.append("numeric")
        else:
            out.append("other")
    return out


def table_from_map(body: dict[str, Any]) -> Table | None:
    """The table a Table_map describes, or None where it does not name every column and every
    ENUM/SET member (binlog_row_metadata=MINIMAL, MariaDB before 10.5)."""
    types, metas = list(body["column_types"]), [int(m) if not isinstance(m, dict) else 0
                                                for m in body["column_metadata"]]
    md = _Metadata(body)
    kinds = _kinds(types, metas)
    signed_iter = iter(md.signedness())
    char_cs = iter(md.charsets("DEFAULT_CHARSET", "COLUMN_CHARSET", kinds.count("char")))
    enum_cs = iter(md.charsets("ENUM_AND_SET_DEFAULT_CHARSET", "ENUM_AND_SET_COLUMN_CHARSET", kinds.count("enumset")))
    enum_vals, set_vals = iter(md.fields.get("ENUM_STR_VALUE") or []), iter(md.fields.get("SET_STR_VALUE") or [])
    names = md.names() or []
    members = len(md.fields.get("ENUM_STR_VALUE") or []) + len(md.fields.get("SET_STR_VALUE") or [])
    if len(names) < len(types) or members < kinds.count("enumset"):
        return None
    nulls = body.get("null_bitmap") or ""  # one '0'/'1' per column, '1' = nullable
    pk = md.primary_key()
    table = Table(body["schema"], body["table"])
    for i, (t, meta, kind) in enumerate(zip(types, metas, kinds)):
        unsigned = next(signed_iter, False) if kind == "numeric" else False
        cid = next(char_cs, None) if kind == "char" else next(enum_cs, None) if kind == "enumset" else None
        cs, coll, width = collation(cid)
        octets: int | None = None
        if t in _NUMERIC:
            data_type, column_type = _NUMERIC[t](meta, unsigned)
        elif t in (VARCHAR, VAR_STRING):
            octets = meta
            binary = cid == BINARY_CHARSET
            data_type = "varbinary" if binary else "varchar"
            column_type = f"{data_type}({meta // width})" if width else data_type
        elif t == BLOB:
            binary = cid == BINARY_CHARSET
            data_type = _BLOBS.get(meta, "") + ("blob" if binary or cid is None else "text")
            column_type = data_type
        elif t == STRING:
            real, length = _string_real_type(meta)
            if real in (ENUM, SET):
                data_type = "enum" if real == ENUM else "set"
                members_of = next(enum_vals if real == ENUM else set_vals, None)
                if members_of is None:
                    return None
                column_type = f"{data_type}({member_list(members_of)})"
            else:
                octets = length
                data_type = "binary" if cid == BINARY_CHARSET else "char"
                column_type = f"{data_type}({length // width})" if width else data_type
        else:
            data_type = column_type = f"type_{t}"
        nullable = nulls[i:i + 1] != "0"
        table.columns.append(Column(names[i], i + 1, data_type, column_type, nullable, "PRI" if i in pk else "",
                                    None if cs == "binary" else cs, None if cs == "binary" else coll,
                                    octets // width if octets is not None and width else None, octets))
    return table


# -- a corpus case's record of the server's schema (case.json `tables`: generators/table_schema.py)

_CHARSET_WIDTH = {"latin1": 1, "ascii": 1, "binary": 1, "ucs2": 2, "utf8mb3": 3, "utf8": 3, "utf8mb4": 4,
                  "utf16": 4, "utf32": 4}
_SIZED = re.compile(r"(char|varchar|binary|varbinary)\((\d+)\)")


def _lengths(column_type: str, charset: str | None) -> tuple[int | None, int | None]:
    """CHARACTER_MAXIMUM_LENGTH and CHARACTER_OCTET_LENGTH of a sized string column; NULL otherwise."""
    m = _SIZED.match(column_type)
    if m is None:
        return None, None
    width = 1 if m[1].endswith("binary") else _CHARSET_WIDTH.get(charset or "")
    n = int(m[2])
    return n, n * width if width else None


def table_from_case(entry: dict[str, Any]) -> Table:
    """A table as the real server described it (information_schema.COLUMNS, SHOW CREATE TABLE):
    after the case's scenario, or for a table the scenario dropped, just before the DROP."""
    table = Table(entry["schema"], entry["table"], create_statement=entry.get("create_table"))
    for i, c in enumerate(entry.get("columns") or [], 1):
        chars, octets = _lengths(c["type"], c["charset"])
        table.columns.append(Column(c["name"], i, c["data_type"], c["type"], c["nullable"], c["key"],
                                    c["charset"], c["collation"], chars, octets, c["default"], c["extra"]))
    return table


def case_tables(meta: dict[str, Any]) -> dict[tuple[str, str], Table]:
    """(schema, table), lower case -> the case's recorded table (entries without columns left out:
    a dropped table on a server too old for the snapshot before the DROP)."""
    return {(e["schema"].lower(), e["table"].lower()): table_from_case(e)
            for e in meta.get("tables") or [] if e.get("columns")}


_CREATE = re.compile(r"\s*CREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?`?(\w+)`?\s*\.\s*`?(\w+)`?",
                     re.I)


_PLACEHOLDER = re.compile(r"@@[A-Z0-9_]+@@")  # generators/sqlscript.py's, e.g. @@ENUM_300@@


def create_statements(meta: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(schema, table) -> the last schema-qualified CREATE TABLE a corpus case's scenario ran. A
    statement still holding the scenario's placeholders (`@@ENUM_300@@`, expanded only when the
    generator ran it) is not what the server ran, and is left out."""
    out = {}
    for st in meta.get("statements") or []:
        sql = st.get("expanded_sql") or st.get("sql", "")
        m = _CREATE.match(sql)
        if m and not _PLACEHOLDER.search(sql):  # one too long to record expanded is not the statement run
            out[(m[1].lower(), m[2].lower())] = sql.strip()
    return out


# -- the answers ----------------------------------------------------------------------------------

def rendered_create(table: Table) -> str | None:
    """SHOW CREATE TABLE as the server renders its dictionary, from the columns a schema source
    recorded (a corpus case's information_schema snapshot without its statement): names, types,
    character sets, nullability, defaults, extras and the primary key. None without columns.
    Secondary indexes, the engine's options and comments are not recorded, and not made up."""
    if not table.columns:
        return None
    lines = []
    for c in table.columns:
        text = f"  `{c.name}` {c.column_type}"
        if c.charset and c.collation:
            text += f" CHARACTER SET {c.charset} COLLATE {c.collation}"
        text += "" if c.nullable else " NOT NULL"
        if c.default is not None:
            text += f" DEFAULT '{c.default}'"
        elif c.nullable:
            text += " DEFAULT NULL"
        lines.append(text + (f" {c.extra}" if c.extra else ""))
    key = [f"`{c.name}`" for c in table.columns if c.key == "PRI"]
    if key:
        lines.append(f"  PRIMARY KEY ({','.join(key)})")
    return f"CREATE TABLE `{table.name}` (\n" + ",\n".join(lines) + "\n) ENGINE=InnoDB"

def information_schema_row(table: Table, c: Column) -> dict[str, Any]:
    """A row of information_schema.COLUMNS, by column name (upper case)."""
    return {
        "TABLE_CATALOG": "def", "TABLE_SCHEMA": table.schema, "TABLE_NAME": table.name,
        "COLUMN_NAME": c.name, "ORDINAL_POSITION": c.ordinal, "COLUMN_DEFAULT": c.default,
        "IS_NULLABLE": "YES" if c.nullable else "NO", "DATA_TYPE": c.data_type,
        "CHARACTER_MAXIMUM_LENGTH": c.char_length, "CHARACTER_OCTET_LENGTH": c.octet_length,
        "NUMERIC_PRECISION": None, "NUMERIC_SCALE": None, "DATETIME_PRECISION": None,
        "CHARACTER_SET_NAME": c.charset, "COLLATION_NAME": c.collation, "COLUMN_TYPE": c.column_type,
        "COLUMN_KEY": c.key, "EXTRA": c.extra, "PRIVILEGES": "select,insert,update,references",
        "COLUMN_COMMENT": "", "GENERATION_EXPRESSION": "", "SRS_ID": None,
    }


def show_columns_row(c: Column, full: bool) -> list[Any]:
    row = [c.name, c.column_type]
    if full:
        row.append(c.collation)
    row += ["YES" if c.nullable else "NO", c.key, c.default, c.extra]
    if full:
        row += ["select,insert,update,references", ""]
    return row


SHOW_COLUMNS = ["Field", "Type", "Null", "Key", "Default", "Extra"]
SHOW_FULL_COLUMNS = ["Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"]


# SHOW INDEX: the primary key is the one index a binlog can tell (Table_map metadata, FULL).
SHOW_INDEX = ["Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation", "Cardinality",
              "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible", "Expression"]


def show_index_rows(t: Table) -> list[list[Any]]:
    key = [c for c in t.columns if c.key == "PRI"]
    return [[t.name, 0, "PRIMARY", n, c.name, "A", None, None, None, "", "BTREE", "", "", "YES", None]
            for n, c in enumerate(key, 1)]


# information_schema.TABLES: that the table exists; what the binlog does not say is NULL.
def information_schema_table_row(t: Table) -> dict[str, Any]:
    return {"TABLE_CATALOG": "def", "TABLE_SCHEMA": t.schema, "TABLE_NAME": t.name, "TABLE_TYPE": "BASE TABLE",
            "ENGINE": None, "VERSION": 10, "ROW_FORMAT": None, "TABLE_ROWS": None, "TABLE_COMMENT": ""}
