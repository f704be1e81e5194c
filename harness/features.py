"""What a case exercises, beyond its event types and server version: the column types its rows
carry and the server settings it was written under. Computed once per case from its case.json
and its expectation (the Table_map and Format_description events), stored in each CaseResult, so
every report groups results by the same features."""
from __future__ import annotations

from typing import Any, Iterable

COLUMN_TYPES, MODES = "column types", "metadata modes"
_TYPE_PREFIX = "MYSQL_TYPE_"
_SETTINGS = {"binlog_row_metadata": "row metadata", "binlog_row_image": "row image",
             "binlog_checksum": "checksum", "gtid_mode": "GTID"}
_GTID_EVENTS = {"GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT", "GTID_EVENT"}
_ANONYMOUS_GTID = "ANONYMOUS_GTID_LOG_EVENT"
_NO_CHECKSUM = "NONE"  # the server setting's word for what Format_description calls OFF


def _bodies(events: Iterable[dict[str, Any]], event_type: str) -> Iterable[dict[str, Any]]:
    for e in events:
        if e.get("type") == event_type and isinstance(e.get("body"), dict):
            yield e["body"]


def column_types(events: list[dict[str, Any]]) -> list[str]:
    """The column types of every Table_map (TINY, VARCHAR, JSON ...): the types row values carry."""
    names = {str(n).removeprefix(_TYPE_PREFIX)
             for body in _bodies(events, "TABLE_MAP_EVENT") for n in body.get("column_type_names") or []}
    return sorted(names)


def _settings(meta: dict[str, Any]) -> dict[str, str]:
    config = meta.get("config")
    settings = config.get("settings") if isinstance(config, dict) else None
    return {k: str(v) for k, v in settings.items()} if isinstance(settings, dict) else {}


def _from_events(events: list[dict[str, Any]]) -> dict[str, str]:
    """What the binlog itself shows, for cases without case.json settings (bare binlogs)."""
    found: dict[str, str] = {}
    for body in _bodies(events, "FORMAT_DESCRIPTION_EVENT"):
        if body.get("checksum_alg"):
            alg = str(body["checksum_alg"]).upper()
            found["binlog_checksum"] = _NO_CHECKSUM if alg == "OFF" else alg
    maps = list(_bodies(events, "TABLE_MAP_EVENT"))
    if maps:
        full = any(m.get("name") == "COLUMN_NAME" for b in maps for m in b.get("optional_metadata") or [])
        found["binlog_row_metadata"] = "FULL" if full else "MINIMAL"
    types = {e.get("type") for e in events}
    if types & _GTID_EVENTS:
        found["gtid_mode"] = "ON"
    elif _ANONYMOUS_GTID in types:
        found["gtid_mode"] = "OFF"
    return found


def metadata_modes(meta: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """E.g. ["row metadata FULL", "row image NOBLOB", "checksum CRC32", "GTID ON"]: case.json's
    settings where the generator recorded them, else what the events show."""
    settings = {**_from_events(events), **_settings(meta)}
    return [f"{label} {settings[key].upper()}" for key, label in _SETTINGS.items() if key in settings]


def case_features(meta: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, list[str]]:
    return {COLUMN_TYPES: column_types(events), MODES: metadata_modes(meta, events)}
