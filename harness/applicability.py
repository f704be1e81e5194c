"""Is a case applicable to a parser? Its manifest's documented refusals (harness/manifests.py) are
predicates on the case's traits: flavor, server version, binlog_format, binlog_row_image and the
event types its binlog holds. A covered case is still run; its result becomes NOT_APPLICABLE with
the refusal's cause, and what the parser did is kept (`run_outcome`): a parser that passes such a
case is reported by the gate (a NOTE, harness/gating.py), so a lifted limit is seen.

The traits come from case.json (the server and settings the generator recorded) and otherwise
from the binlog itself, as `harness serve` infers them for a bare binlog: the Format_description's
server version, and binlog_format / binlog_row_image from its events (primary/written_settings.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from oracle.event_types import EventType

from .expectations import Expectation
from .manifests import Refusal, for_parser
from .outcomes import CaseResult, Outcome
from .primary.written_settings import WrittenSettings

MYSQL, MARIADB = "mysql", "mariadb"
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def version_tuple(text: str) -> tuple[int, int, int] | None:
    m = _VERSION.search(text)
    return (int(m[1]), int(m[2]), int(m[3] or 0)) if m else None


@dataclass(frozen=True)
class CaseTraits:
    flavor: str  # MYSQL or MARIADB
    version: tuple[int, int, int] | None
    binlog_format: str  # "" when neither case.json nor the events say
    binlog_row_image: str
    event_types: frozenset[str]


def _written(events: list[dict[str, Any]]) -> dict[str, str]:
    written = WrittenSettings()
    for e in events:
        body = e.get("body")
        if isinstance(body, dict) and isinstance(e.get("type"), str) and e["type"] in EventType.__members__:
            written.observe(int(EventType[e["type"]]), body)
    settings = written.settings()
    if written.rows or written.statements:  # what the events show; ROW / FULL where nothing contradicts it
        settings.setdefault("binlog_format", "ROW")
        settings.setdefault("binlog_row_image", "FULL")
    return settings


def traits(meta: dict[str, Any], expectation: Expectation) -> CaseTraits:
    server = meta.get("server") if isinstance(meta.get("server"), dict) else {}
    version_text = expectation.server_version
    flavor = str(server.get("flavor") or (MARIADB if "mariadb" in version_text.lower() else MYSQL))
    recorded = (meta.get("config") or {}).get("settings") if isinstance(meta.get("config"), dict) else None
    settings = {k: str(v).upper() for k, v in (recorded or {}).items()}
    shown = _written(expectation.events) if not {"binlog_format", "binlog_row_image"} <= set(settings) else {}
    fmt = settings.get("binlog_format") or shown.get("binlog_format", "")
    image = settings.get("binlog_row_image") or shown.get("binlog_row_image", "")
    return CaseTraits(flavor, version_tuple(version_text), fmt, image, frozenset(expectation.event_types))


def covers(refusal: Refusal, parser: str, t: CaseTraits) -> bool:
    if refusal.parsers and parser not in refusal.parsers:
        return False
    if refusal.flavor and refusal.flavor != t.flavor:
        return False
    for bound, below in ((refusal.version_from, False), (refusal.version_below, True)):
        if bound:
            limit = version_tuple(bound)
            if t.version is None or limit is None or (t.version < limit) != below:
                return False
    if refusal.binlog_format_not and (not t.binlog_format or t.binlog_format in refusal.binlog_format_not):
        return False
    if refusal.binlog_row_image_not and (not t.binlog_row_image or t.binlog_row_image in refusal.binlog_row_image_not):
        return False
    if refusal.event_types_any and not t.event_types & set(refusal.event_types_any):
        return False
    return True


def refusal_for(parser: str, meta: dict[str, Any], expectation: Expectation) -> Refusal | None:
    """The first of the parser's documented refusals that covers the case, if any."""
    manifest = for_parser(parser)
    if manifest is None or not manifest.refusals:
        return None
    t = traits(meta, expectation)
    return next((r for r in manifest.refusals if covers(r, parser, t)), None)


def applied(result: CaseResult, refusal: Refusal | None) -> CaseResult:
    """The result as the gate sees it: NOT_APPLICABLE where a refusal covers the case (unless
    nothing was run: the tool is not here, or the harness skipped the case with its reason)."""
    if refusal is None or result.outcome in (Outcome.UNAVAILABLE, Outcome.SKIPPED):
        return result
    return replace(result, outcome=Outcome.NOT_APPLICABLE, cause=refusal.cause, run_outcome=result.outcome.value)
