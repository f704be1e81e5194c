"""Issue 7, hypothesis: the binlog strategies (generators/strategies) build valid binlogs for the
MySQL 5.6 / 5.7 / 8.0 / 9.x profiles.

- the profiles' Format_description post-header lengths are those of real binlogs of that line;
- the oracle decodes what the strategies encode to the values they were built from;
- the real mysqlbinlog (MySQL 9.7, docker image) accepts what they build (a 20-example sample);
- every built-in parser plugin agrees with the oracle or rejects cleanly, apart from the
  disagreements recorded as corpus/findings cases.

A failing property leaves its shrunk binlog in build/hypothesis-reproducers/<test>.bin (the
last example hypothesis runs is the minimal one)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings

from generators.strategies import PROFILES, built_binlogs, differences
from generators.strategies.events import status_vars
from harness.fuzz.hypothesis_engine import HypothesisSettings, run
from oracle import decode_bytes
from oracle.codecs.types import ColumnType
from oracle.event_types import EventType as E
from tests.external import ROOT

PROJECT = Path(__file__).resolve().parents[1]
REPRODUCERS = PROJECT / "build" / "hypothesis-reproducers"
FEW = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def keep(name: str, data: bytes) -> None:
    """Write the example under test; when the property fails, the last one written is the shrunk one."""
    REPRODUCERS.mkdir(parents=True, exist_ok=True)
    (REPRODUCERS / f"{name}.bin").write_bytes(data)


def _first_fde(path: Path) -> dict:
    with open(path, "rb") as f:
        head = f.read(4096)
    return next(e.to_json() for e in decode_bytes(head, verify_checksums=False)
                if e.type_code == E.FORMAT_DESCRIPTION_EVENT)


@pytest.mark.parametrize("name", list(PROFILES))
def test_profile_post_header_lengths_are_those_of_real_binlogs(name: str) -> None:
    profile = PROFILES[name]
    paths = [p for p in (ROOT / s if not s.startswith("corpus/") else PROJECT / s for s in profile.source)
             if p.is_file()]
    if not paths:
        pytest.skip("none of the profile's source binlogs is here")
    for path in paths:
        fde = _first_fde(path)["body"]
        assert tuple(fde["post_header_len"]) == profile.post_header_len, path
        assert fde["server_version"].split(".")[:1] == profile.server_version.split(".")[:1], path


@seed(0)
@settings(max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(built_binlogs())
def test_oracle_decodes_what_the_strategies_build(built) -> None:
    keep("oracle-roundtrip", built.data)
    decoded = [e.to_json() for e in decode_bytes(built.data)]  # checksums verified
    assert differences(built.events, decoded) == []


@pytest.mark.parametrize("name", list(PROFILES))
def test_each_profile_builds_its_own_format(name: str) -> None:
    profile = PROFILES[name]

    @seed(1)
    @FEW
    @given(built_binlogs(name))
    def prop(built) -> None:
        keep(f"profile-{name}", built.data)
        decoded = [e.to_json() for e in decode_bytes(built.data)]
        fde = decoded[0]["body"]
        assert tuple(fde["post_header_len"]) == profile.post_header_len
        assert fde["server_version"] == profile.server_version
        assert {e["type_code"] for e in decoded} <= set(profile.events)
        assert differences(built.events, decoded) == []
    prop()


@pytest.mark.parametrize("name, kind", [(n, int(k)) for n, p in PROFILES.items() for k in p.column_types],
                         ids=[f"{n}-{ColumnType(k).name}" for n, p in PROFILES.items() for k in p.column_types])
def test_rows_of_every_column_type_decode_to_their_values(name: str, kind: int) -> None:
    @seed(2)
    @settings(max_examples=4, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(built_binlogs(name, column_types=(kind,)))
    def prop(built) -> None:
        keep(f"column-{name}-{kind}", built.data)
        decoded = [e.to_json() for e in decode_bytes(built.data)]
        maps = [e["body"] for e in decoded if e["type_code"] == E.TABLE_MAP_EVENT]
        assert maps and all(_real_types(tm) == {kind} for tm in maps)
        assert any(e["body"].get("rows") for e in decoded)
        assert differences(built.events, decoded) == []
    prop()


@pytest.mark.parametrize("name", list(PROFILES))
def test_queries_carry_every_status_variable_of_the_profile(name: str) -> None:
    seen: set[str] = set()

    @seed(2)
    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(status_vars(PROFILES[name]))
    def collect(values) -> None:
        assert list(values) == [v for v in PROFILES[name].status_vars if v in values]  # in code order
        seen.update(values)
    collect()
    assert seen == set(PROFILES[name].status_vars)


def _real_types(tm: dict) -> set[int]:
    """ENUM and SET travel as STRING with the real type in the metadata's high byte."""
    return {meta >> 8 if t == 254 and meta >> 8 in (247, 248) else t
            for t, meta in zip(tm["column_types"], tm["column_metadata"])}


def _unavailable(parser: str) -> str | None:
    from harness.plugins.registry import load
    return load(parser).unavailable_reason()


@pytest.mark.mysqlbinlog
def test_real_mysqlbinlog_accepts_what_the_strategies_build(tmp_path: Path) -> None:
    reason = _unavailable("mysqlbinlog")  # docker and the binlog-mysql:9.7 image
    if reason:
        pytest.skip(reason)
    from generators.tools import DecoderSession
    with DecoderSession([tmp_path]) as session:
        @seed(3)
        @settings(max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(built_binlogs())
        def accepted(built) -> None:
            keep("mysqlbinlog-accepts", built.data)
            path = tmp_path / "built.bin"
            path.write_bytes(built.data)
            proc = session.run(path, ("-vvv",), timeout=120)
            err = proc.stderr.decode(errors="replace")
            assert proc.returncode == 0 and "ERROR" not in err, err[-1000:]
            assert b"# End of log file" in proc.stdout
        accepted()


# Disagreements with the oracle each built-in parser is known to have on valid generated binlogs:
# each is a minimised reproducer case in corpus/findings/<parser>/ (docs there).
KNOWN = {
    "python-mysql-replication": {
        "crash:parser:AssertionError@protocol.py:72",  # 5.6 GTID event: reads lt_type past the body
        # Q_MASTER_DATA_WRITTEN_CODE's 4 bytes are not consumed: the next status variables or the
        # db name are read from them (or a StatusVariableMismatch, a clean rejection, allowed here)
        "differential:mismatch:QUERY_EVENT:body.db",
    },
}




@pytest.mark.parametrize("parser, count", [("python-mysql-replication", 60), ("mariadb-binlog", 20)])
def test_parsers_agree_with_the_oracle_or_reject_cleanly(parser: str, count: int, tmp_path: Path) -> None:
    reason = _unavailable(parser)
    if reason:
        pytest.skip(f"{parser}: {reason}")
    summary = run(HypothesisSettings(seed=4, count=count, parser=parser, timeout=60, out_dir=tmp_path))
    found = {s["signature"] for s in summary["findings"]["signatures"]}
    assert found <= KNOWN.get(parser, set()), json.dumps(summary["findings"]["signatures"], indent=1)[:3000]
    for path in summary["findings"]["reproducers"]:  # shrunk reproducers the oracle still decodes
        assert list(decode_bytes(Path(path).read_bytes()))
