"""The combined HTML report as a person sees it: built from real results of real parsers (the
oracle, mysqlbinlog, python-mysql-replication over a file, a Node stream parser) on a few corpus
cases, then rendered by a real browser (Debian's chromium, headless): the summary table has a row
for each parser, and the screenshot is not blank."""
from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import pytest

from harness.reports import browser
from tests.harness_helpers import GOOD, PROJECT, corpus_args, needs_external, run_cli

pytestmark = [needs_external,
              pytest.mark.skipif(browser.find() is None, reason="chromium is not installed "
                                 "(apt-get install -y chromium; python -m harness setup installs it)")]

PARSERS = ["oracle", "mysqlbinlog", "python-mysql-replication-file", "zongji-vlasky"]
CASES = [PROJECT / "corpus" / "mysql-9.7" / "integers--row",
         PROJECT / "corpus" / "mariadb-10.11" / "enum_set_bit--row", GOOD[0]]


def _png_colours(png: bytes) -> set[bytes]:
    """The distinct pixel values of an 8-bit RGB(A) PNG (chromium writes those), enough to tell a
    blank page from a rendered one."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, width, channels = 8, [], 0, 4
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, _, depth, colour_type = struct.unpack(">IIBB", data[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour_type]
        elif kind == b"IDAT":
            chunks.append(data)
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = 1 + width * channels
    # Unfiltered bytes are not needed: distinct filtered rows already differ on a non-blank page.
    return {raw[i:i + stride] for i in range(0, len(raw), stride * 25)}


def test_combined_report_renders_in_chromium(tmp_path: Path):
    html = tmp_path / "report.html"
    args = [a for p in PARSERS for a in ("--parser", p)]
    rc, records = run_cli(tmp_path, *args, "--html", str(html), *corpus_args(CASES))
    assert rc in (0, 1), f"conformance run broke (exit {rc})"
    unavailable = {r["parser"] for r in records if r["outcome"] == "unavailable"}
    if unavailable:
        pytest.skip(f"parsers not available here: {sorted(unavailable)} (python -m harness peers install; "
                    "python -m harness setup)")
    assert {r["parser"] for r in records} == set(PARSERS) and len(records) == len(PARSERS) * len(CASES)

    page = html.read_text(encoding="utf-8")
    assert not re.search(r'<script|<link|(src|href)="(https?:)?//', page), "the report fetches from the network"
    dom = browser.dump_dom(html)
    table = re.search(r'<table class="summary">.*?</table>', dom, re.S)
    assert table, "the summary table is not in the rendered DOM"
    rows = re.findall(r'<tr data-parser="([^"]+)">(.*?)</tr>', table[0], re.S)
    assert [p for p, _ in rows] == sorted(PARSERS)
    for parser, row in rows:
        counts = re.findall(r">(\d+)/(\d+)<", row)
        assert counts, f"no pass/total cell in {parser}'s row"
        assert all(int(p) <= int(t) for p, t in counts)
    # The oracle decodes every case: all its cells are full; the areas of the brief are there.
    oracle = dict(rows)["oracle"]
    assert all(p == t for p, t in re.findall(r">(\d+)/(\d+)<", oracle))
    for area in ("event types", "column types", "server versions", "metadata modes", "transport"):
        assert f">{area}</th>" in table[0]

    png = browser.screenshot(html, tmp_path / "report.png", 1400, 900)
    assert len(_png_colours(png.read_bytes())) > 5, "the screenshot is blank"
