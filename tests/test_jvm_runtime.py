"""harness/runtimes/jvm.py and the mysql-binlog-connector-java folders: the Zendesk line shares
the Debezium folder's adapter source through a symlink (no copied Java), every Maven version is
pinned exactly, a build lands in the cache, and the built adapter speaks the persistent protocol
over many requests in one JVM, reporting a corpus file as the oracle decodes it."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from harness.compare import compare_events
from harness.plugins.base import Capabilities
from harness.runtimes.base import PARSERS_DIR, cache_root
from harness.runtimes.jvm import RUNTIME, maven_repository
from oracle.decoder import decode_file

from .parser_builds import built_folder

DEBEZIUM = PARSERS_DIR / "mysql-binlog-connector-java"
ZENDESK = PARSERS_DIR / "mysql-binlog-connector-java-zendesk"
CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def test_zendesk_line_shares_the_adapter_source():
    link = ZENDESK / "src"
    assert link.is_symlink() and link.resolve() == (DEBEZIUM / "src").resolve()
    sources = {p.name for p in RUNTIME.inputs(ZENDESK) if p.suffix == ".java"}
    assert "Main.java" in sources and sources == {p.name for p in RUNTIME.inputs(DEBEZIUM) if p.suffix == ".java"}
    assert RUNTIME.digest(ZENDESK) != RUNTIME.digest(DEBEZIUM)  # the poms differ


@pytest.mark.parametrize("folder", [DEBEZIUM, ZENDESK], ids=lambda f: f.name)
def test_every_maven_version_is_exact(folder):
    pom = (folder / "pom.xml").read_text()
    properties = dict(re.findall(r"<([\w.]+)>([^<]*)</\1>", pom.split("<properties>")[1].split("</properties>")[0]))
    versions = [properties.get(v[2:-1], v) if v.startswith("${") else v
                for v in re.findall(r"<version>([^<]+)</version>", pom)]
    assert len(versions) >= 7  # the project, the library, zstd-jni and five plugins
    for v in versions:
        assert re.fullmatch(r"\d+(\.\d+)*(-\d+)?", v), f"{folder.name}: version {v!r} is not exact"


def test_pinned_library_versions():
    assert RUNTIME.pinned_version(DEBEZIUM, "io.debezium:mysql-binlog-connector-java") == "0.41.0"
    assert RUNTIME.pinned_version(ZENDESK, "com.zendesk:mysql-binlog-connector-java") == "0.30.1"
    assert RUNTIME.pinned_version(DEBEZIUM, "com.zendesk:mysql-binlog-connector-java") is None
    assert all((folder / f).is_file() for folder in (DEBEZIUM, ZENDESK) for f in RUNTIME.required_files)


def test_builds_go_to_the_cache():
    assert RUNTIME.build_dir(DEBEZIUM).is_relative_to(cache_root())
    assert maven_repository().is_relative_to(cache_root())


@pytest.fixture(scope="module")
def debezium_adapter() -> list[str]:
    return RUNTIME.command(built_folder(RUNTIME, DEBEZIUM.name))


def test_file_testee_reports_the_corpus_as_the_oracle(debezium_adapter, tmp_path):
    """Two requests in one JVM; the second is a file the library must reject partway."""
    good = CORPUS / "mysql-9.7" / "ddl_dml_basic--row" / "binlog.000001"
    truncated = good.read_bytes()[:1000]
    with_bad = tmp_path / "truncated"
    with_bad.write_bytes(truncated)
    requests = [{"type": "parse", "id": 1, "path": str(good)}, {"type": "parse", "id": 2, "path": str(with_bad)}]
    proc = subprocess.run(debezium_adapter + ["file"], input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=120)
    hello, first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert hello["name"] == "mysql-binlog-connector-java-file" and hello["transport"] == "file"
    assert hello["version"] == RUNTIME.pinned_version(DEBEZIUM, "io.debezium:mysql-binlog-connector-java")
    caps = Capabilities.from_json(hello["capabilities"])
    expected = [e.to_json() for e in decode_file(good)]
    assert first["type"] == "events" and len(first["events"]) == len(expected) > 20
    assert compare_events(expected, first["events"], caps) == []
    assert any(e["body"].get("rows") for e in first["events"])
    assert second["type"] == "error" and second["id"] == 2
    assert 0 < len(second["events"]) < len(expected) and second["offset"] <= 1000
