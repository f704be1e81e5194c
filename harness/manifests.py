"""Each built-in parser's manifest: the findings its expected failures cite (`cause=<id>`,
harness/expected_failures.py) and the documented refusals that make a case not applicable to it
(harness/applicability.py). One TOML file per parser folder, harness/parsers/<folder>/manifest.toml
(the stream and file testees of one library share it); `uses` lets a manifest cite the findings of
another folder (Debezium's binlog client is mysql-binlog-connector-java's). The harness's own
reasons for not running a case (a relay log is not streamed, ...) are in harness-shared, which
every manifest uses.

A finding is a defect or a documented limit of the library, written up on its page under
docs/findings/, with the test that shows it with the library alone (or why there is none)."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .parsers.registry import BY_NAME, BuiltinParser

PARSERS_DIR = Path(__file__).parent / "parsers"
MANIFEST = "manifest.toml"
SHARED_FOLDER = "harness-shared"
STATUSES = ("defect", "limit", "harness")  # harness: the harness's reason, not the parser's


class ManifestError(ValueError):
    pass


@dataclass(frozen=True)
class Finding:
    id: str
    title: str
    status: str
    test: str  # the library-alone test id, or "no live test: <why>"
    folder: str  # whose manifest defines it
    page: str  # docs/findings/<page>.md


@dataclass(frozen=True)
class Refusal:
    """A documented refusal: the cases it covers (every key given must hold) are not applicable."""
    cause: str
    parsers: tuple[str, ...] = ()  # empty: every testee of the folder
    flavor: str = ""  # "mysql" or "mariadb"
    version_from: str = ""  # the server version is at least this
    version_below: str = ""  # ... and below this
    binlog_format_not: tuple[str, ...] = ()  # the case's binlog_format is known and not one of these
    binlog_row_image_not: tuple[str, ...] = ()
    event_types_any: tuple[str, ...] = ()  # the binlog holds an event of one of these types


@dataclass(frozen=True)
class Liveness:
    """How a stream testee, configured as its users configure it, notices a primary that goes
    silent: within `seconds` (its read timeout, or its heartbeat check), as `configured` says.
    The wire faults judge it at that time plus a margin, not at their default limit."""
    seconds: float
    configured: str


@dataclass(frozen=True)
class Manifest:
    folder: str
    page: str
    findings: dict[str, Finding] = field(default_factory=dict)  # its own and those of `uses`
    refusals: tuple[Refusal, ...] = ()
    uses: tuple[str, ...] = ()
    liveness: dict[str, Liveness] = field(default_factory=dict)  # by stream testee

    def own_findings(self) -> list[Finding]:
        return [f for f in self.findings.values() if f.folder == self.folder]


def folder_of(parser: BuiltinParser) -> str:
    """A runtime parser's folder is its target; an in-process one (a Python plugin) has a folder
    for its manifest alone, named after the library (the -file testee shares its stream's)."""
    return parser.name.removesuffix("-file") if parser.in_process else parser.target


def _tuple(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f"{where}: expected a string or a list of strings")
    return tuple(value)


def _refusal(raw: dict[str, Any], where: str) -> Refusal:
    known = set(Refusal.__dataclass_fields__)
    unknown = set(raw) - known
    if unknown or "cause" not in raw:
        raise ManifestError(f"{where}: keys {sorted(unknown)} unknown or no cause (known: {sorted(known)})")
    kw = {k: (_tuple(v, f"{where}.{k}") if isinstance(Refusal.__dataclass_fields__[k].default, tuple) else str(v))
          for k, v in raw.items()}
    return Refusal(**kw)


def _parse(folder: str, data: dict[str, Any], path: Path) -> Manifest:
    page = str(data.get("page", ""))
    findings = {}
    for fid, raw in (data.get("findings") or {}).items():
        status = raw.get("status")
        if status not in STATUSES or not raw.get("title") or not raw.get("test"):
            raise ManifestError(f"{path}: finding {fid}: needs a title, a test (or 'no live test: ...') "
                                f"and a status of {STATUSES}")
        findings[fid] = Finding(fid, str(raw["title"]), status, str(raw["test"]), folder, str(raw.get("page", page)))
    refusals = tuple(_refusal(r, f"{path}: not_applicable[{i}]") for i, r in enumerate(data.get("not_applicable") or []))
    uses = _tuple(data.get("uses", []), f"{path}: uses")
    return Manifest(folder, page, findings, refusals, uses, _liveness(data.get("liveness") or {}, path))


def _liveness(raw: dict[str, Any], path: Path) -> dict[str, Liveness]:
    out = {}
    for parser, entry in raw.items():
        seconds, configured = entry.get("seconds"), entry.get("configured")
        if parser not in BY_NAME or not isinstance(seconds, (int, float)) or seconds <= 0 or not configured:
            raise ManifestError(f"{path}: liveness.{parser}: needs a built-in parser's name, seconds > 0 "
                                "and the words `configured` (how its adapter sets it)")
        out[parser] = Liveness(float(seconds), str(configured))
    return out


@cache
def load(folder: str) -> Manifest:
    """The folder's manifest with the findings of every folder it uses (and harness-shared's)."""
    path = PARSERS_DIR / folder / MANIFEST
    if not path.is_file():
        raise ManifestError(f"{path}: no manifest")
    try:
        own = _parse(folder, tomllib.loads(path.read_text(encoding="utf-8")), path)
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: {e}") from e
    findings: dict[str, Finding] = {}
    for other in (*own.uses, *(() if folder == SHARED_FOLDER else (SHARED_FOLDER,))):
        findings.update(load(other).findings)
    clash = set(findings) & set(own.findings)
    if clash:
        raise ManifestError(f"{path}: finding ids {sorted(clash)} are also defined by a folder it uses")
    findings.update(own.findings)
    for r in own.refusals:
        if r.cause not in findings:
            raise ManifestError(f"{path}: a refusal's cause {r.cause!r} is no finding")
    return Manifest(folder, own.page, findings, own.refusals, own.uses, own.liveness)


def for_parser(name: str) -> Manifest | None:
    """The manifest of a built-in parser; None for one given by command (--parser-cmd ...)."""
    parser = BY_NAME.get(name)
    return load(folder_of(parser)) if parser is not None else None


def liveness_of(name: str) -> Liveness | None:
    """How a built-in stream testee notices a silent primary; None: it is not set to notice."""
    manifest = for_parser(name)
    return manifest.liveness.get(name) if manifest is not None else None
