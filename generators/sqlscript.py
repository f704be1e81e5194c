"""Scenario files: a metadata header, then statements split as the mysql client splits them.

Kept as plain SQL (data, not code) so a reader can paste a scenario into a client; large values
are written as @@PLACEHOLDERS@@ and expanded here.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

SCENARIO_DIR = Path(__file__).with_name("scenarios")
_HEADER = re.compile(r"^--\s*(\w+):\s*(.*)$")


@dataclass(frozen=True)
class Scenario:
    name: str
    flavors: tuple[str, ...]
    min_version: dict[str, tuple[int, ...]]
    events: tuple[str, ...]
    columns: tuple[str, ...]
    settings: dict[str, str]
    statements: tuple[str, ...] = field(repr=False)
    end: str = "flush"  # how the last binlog is closed: FLUSH BINARY LOGS, or "shutdown" (Stop event)

    def supports(self, flavor: str, version: tuple[int, int, int]) -> bool:
        return flavor in self.flavors and version >= self.min_version.get(flavor, (0,))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def _csv(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def split_statements(sql: str) -> list[str]:
    """Split on the delimiter at the end of a line; `DELIMITER x` lines change it."""
    statements, current, delimiter = [], [], ";"
    for line in sql.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("--")):
            continue
        if stripped.upper().startswith("DELIMITER "):
            delimiter = stripped.split(None, 1)[1]
            continue
        current.append(line)
        if stripped.endswith(delimiter):
            text = "\n".join(current).rstrip()
            statements.append(text[: -len(delimiter)].rstrip())
            current = []
    if current:
        statements.append("\n".join(current).strip())
    return statements


def _placeholders(secure_file_dir: str) -> dict[str, str]:
    members_300 = ", ".join(f"'m{i}'" for i in range(1, 301))
    members_64 = ", ".join(f"'m{i}'" for i in range(1, 65))
    big = json.dumps({f"key{i:05d}": ["value", i, i * 1.5, {"nested": "x" * 20}] for i in range(1100)})
    deep = "[" * 90 + "1" + "]" * 90
    return {
        "ENUM_300": members_300,
        "SET_64": members_64,
        "SET_64_ALL": "'" + ",".join(f"m{i}" for i in range(1, 65)) + "'",
        "BIG_JSON_70K": "'" + big + "'",
        "DEEP_JSON_90": "'" + deep + "'",
        "COLUMNS_300": ", ".join(["id INT PRIMARY KEY"] + [f"c{i} SMALLINT" for i in range(1, 300)]),
        "VALUES_300": ", ".join(["1"] + [str(i) for i in range(1, 300)]),
        "SECURE_FILE_DIR": secure_file_dir,
    }


def expand(statement: str, secure_file_dir: str = "/tmp") -> str:
    values = _placeholders(secure_file_dir)
    return re.sub(r"@@([A-Z0-9_]+)@@", lambda m: values[m[1]], statement)


def load(path: Path) -> Scenario:
    text = path.read_text()
    meta: dict[str, str] = {}
    for line in text.splitlines():
        m = _HEADER.match(line)
        if not m:
            break
        meta[m[1]] = m[2]
    min_version = {}
    for part in _csv(meta.get("min_version", "")):
        flavor, version = part.split()
        min_version[flavor] = _version(version)
    settings = dict(s.split("=", 1) for s in _csv(meta.get("settings", "")))
    return Scenario(path.stem, _csv(meta.get("flavors", "mysql, mariadb")), min_version,
                    _csv(meta.get("events", "")), _csv(meta.get("columns", "")), settings,
                    tuple(split_statements(text)), meta.get("end", "flush").strip())


def catalogue() -> list[Scenario]:
    return [load(p) for p in sorted(SCENARIO_DIR.glob("*.sql"))]
