"""Which corpus cases the control experiment replays: every scenario at least once and every
local server version at least once, with one server start per version and configuration of
generators/matrix.py (a server start costs more than a scenario).

Every version runs under `row`, so that each streams row changes to a row-based CDC pipeline.
Two servers more give the scenarios that exist only under other configurations a home:
MySQL 9.7 under `row-minimal` (json_partial) and MariaDB 10.11 under `statement` (load_data,
session_context). Debezium refuses such servers (it needs binlog_format=ROW and
binlog_row_image=FULL), and must refuse `harness serve` serving their binlogs the same way. A
scenario that fits several servers goes to a `row` one if it can, then to the one with the
fewest cases so far, so the run is spread evenly."""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..corpus import CASE_FILE

# One server start each: (profile, configuration of generators/matrix.py CONFIGS).
ROW = "row"
SERVERS: tuple[tuple[str, str], ...] = (
    ("mysql-5.6", ROW), ("mysql-5.7", ROW), ("mysql-8.0", ROW), ("mysql-9.7", ROW),
    ("mariadb-10.5", ROW), ("mariadb-10.11", ROW), ("mariadb-11.8", ROW),
    ("mysql-9.7", "row-minimal"), ("mariadb-10.11", "statement"),
)
# Scenarios the experiment cannot replay, and why.
LEFT_OUT: dict[str, str] = {
    "shutdown": "it ends by stopping the server (its Stop event is written at shutdown), so no "
                "server is left to stream the case from",
}


@dataclass(frozen=True)
class SampleCase:
    """One corpus case to replay: its directory and its case.json."""

    case_dir: Path
    meta: dict[str, Any] = field(repr=False, compare=False, hash=False)

    @property
    def name(self) -> str:
        return f"{self.profile}/{self.meta['name']}"

    @property
    def profile(self) -> str:
        return str(self.meta["server"]["profile"])

    @property
    def config(self) -> str:
        return str(self.meta["config"]["name"])

    @property
    def scenario(self) -> str:
        return str(self.meta["scenario"]["name"])

    @property
    def server_options(self) -> dict[str, str]:
        return dict(self.meta["config"]["server_options"])


@dataclass(frozen=True)
class ServerPlan:
    """One server start: a version, the configuration its cases were made under, the cases."""

    profile: str
    config: str
    cases: tuple[SampleCase, ...]

    @property
    def server_options(self) -> dict[str, str]:
        return self.cases[0].server_options


def corpus_cases(corpus: Path) -> list[SampleCase]:
    return [SampleCase(p.parent, json.loads(p.read_text(encoding="utf-8")))
            for p in sorted(corpus.glob(f"*/*/{CASE_FILE}"))]


def choose(corpus: Path, servers: tuple[tuple[str, str], ...] = SERVERS) -> list[ServerPlan]:
    """The sample, one plan per server start that has cases, in `servers` order; the cases of a
    plan in corpus order (the order generators/ runs them in on one server)."""
    fits: dict[str, list[SampleCase]] = defaultdict(list)   # scenario -> cases it could use
    for c in corpus_cases(corpus):
        if c.scenario not in LEFT_OUT and (c.profile, c.config) in servers:
            fits[c.scenario].append(c)
    chosen: dict[tuple[str, str], list[SampleCase]] = {s: [] for s in servers}
    for scenario in sorted(fits, key=lambda s: (len(fits[s]), s)):   # the least placeable first
        best = min(fits[scenario], key=lambda c: (c.config != ROW, len(chosen[(c.profile, c.config)]),
                                                  servers.index((c.profile, c.config))))
        chosen[(best.profile, best.config)].append(best)
    return [ServerPlan(p, config, tuple(sorted(cs, key=lambda c: c.case_dir.name)))
            for (p, config), cs in chosen.items() if cs]


def uncovered(corpus: Path, plans: list[ServerPlan]) -> list[str]:
    """Scenarios of the corpus no plan replays, apart from LEFT_OUT: the sample must leave none."""
    covered = {c.scenario for p in plans for c in p.cases}
    return sorted({c.scenario for c in corpus_cases(corpus)} - covered - set(LEFT_OUT))
