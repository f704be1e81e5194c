"""Reports: JUnit XML that CI tools read, an HTML matrix a person can read, a JSON document."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from tests.harness_helpers import GOOD, TRUNCATED, corpus_args, needs_external, node_cmd, run_cli

pytestmark = needs_external


class _Tables(HTMLParser):
    """Collects each matrix table as rows of (text, class) cells."""

    def __init__(self):
        super().__init__()
        self.tables, self._cell, self.title = {}, None, ""
        self._in_title = False
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "title":
            self._in_title = True
        if tag == "table" and "data-parser" in a:
            self._table = self.tables.setdefault(a["data-parser"], [])
        if tag == "tr" and self._table is not None:
            self._table.append([])
        if tag in ("td", "th") and self._table is not None:
            self._cell = [tag, a.get("class", ""), ""]

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self._table[-1].append(tuple(self._cell))
            self._cell = None
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._cell is not None:
            self._cell[2] += data


def test_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("NODE_PARSER_ALTER", "server_id")
    out = {k: tmp_path / f"report.{k}" for k in ("html", "xml", "json")}
    rc, records = run_cli(tmp_path, "--parser", "oracle", "--parser-cmd", node_cmd(),
                          "--html", str(out["html"]), "--junit", str(out["xml"]), "--json", str(out["json"]),
                          *corpus_args([*GOOD, TRUNCATED]))
    assert rc == 1

    suites = {s.get("name"): s for s in ET.parse(out["xml"]).getroot().iter("testsuite")}
    assert set(suites) == {"oracle", "node-header-parser"}
    assert suites["oracle"].get("failures") == "0" and suites["oracle"].get("tests") == "5"
    node_failures = [tc for tc in suites["node-header-parser"].iter("testcase") if tc.find("failure") is not None]
    assert len(node_failures) == int(suites["node-header-parser"].get("failures")) >= 4
    assert "server_id" in node_failures[0].find("failure").text

    doc = json.loads(out["json"].read_text())
    assert doc["summary"]["oracle"] == {"pass": 5}
    assert doc["gate"]["oracle"]["ok"] and not doc["gate"]["node-header-parser"]["ok"]
    assert len(doc["results"]) == len(records) == 10
    oracle_checks, node_checks = doc["checks"]["oracle"], doc["checks"]["node-header-parser"]
    assert oracle_checks["failed"] == 0 and oracle_checks["passed"] > 100
    assert node_checks["by_area"]["framing"]["failed"] >= 4  # the altered server_id
    assert node_checks["by_area"]["event_metadata"]["passed"] == 0  # it claims no body: none compared
    assert all(set(r["checks"]) >= {"passed", "failed", "not_compared", "by_area"} for r in doc["results"]
               if r["checks"])

    page = _Tables()
    page.feed(out["html"].read_text())
    assert "conformance" in page.title.lower()
    oracle = page.tables["oracle"]
    header = [text for _, _, text in oracle[0]]
    assert header[0] == "event type" and "MySQL 5.6" in header and "MariaDB 10.5" in header
    rows = {row[0][2]: row[1:] for row in oracle[1:]}
    assert "FORMAT_DESCRIPTION_EVENT" in rows and "QUERY_EVENT" in rows
    # the truncated binlog holds no event: rejected as expected, nothing compared, grey not green
    assert {cls for _, cls, _ in rows.pop("(no events)")} <= {"na", "none"}
    assert all(cls in ("pass", "none") for row in rows.values() for _, cls, _ in row)
    tag, cls, text = rows["FORMAT_DESCRIPTION_EVENT"][header.index("MySQL 5.6") - 1]
    passed, compared = text.split("/")  # the FDE's checks: every header and body field, its presence
    assert (tag, cls) == ("td", "pass") and passed == compared and int(compared) > 10
    node_rows = {row[0][2]: row[1:] for row in page.tables["node-header-parser"][1:]}
    assert any(cls == "fail" for row in node_rows.values() for _, cls, _ in row)
