"""Corpus layouts: annotated case directories with an expected decode, and bare binlogs."""
from __future__ import annotations

import json

from harness.corpus import discover
from oracle import decode_file
from tests.harness_helpers import GOOD, TRUNCATED, needs_external, run_cli

pytestmark = needs_external


def _case(root, name, binlog, expected_lines, meta=None):
    d = root / name
    d.mkdir(parents=True)
    (d / "case.json").write_text(json.dumps(meta or {"server_version": "8.0.2"}))
    (d / binlog.name).symlink_to(binlog)
    (d / "expected.jsonl").write_text("".join(json.dumps(x) + "\n" for x in expected_lines))
    return d


def test_annotated_cases_use_their_expected_decode(tmp_path):
    events = [e.to_json() for e in decode_file(GOOD[0])]
    corpus = tmp_path / "mycorpus"
    _case(corpus, "good", GOOD[0], events)
    wrong = [dict(e) for e in events]
    wrong[-1] = {**wrong[-1], "timestamp": wrong[-1]["timestamp"] + 1}
    _case(corpus, "wrong", GOOD[0], wrong)
    _case(corpus, "cut", TRUNCATED, [{"error": {"kind": "TruncatedEvent", "offset": 4}}])
    (corpus / "bare").mkdir()
    (corpus / "bare" / "x.000001").symlink_to(GOOD[1])
    (corpus / "README.md").write_text("not a binlog")

    cases = discover(corpus)
    assert [c.id for c in cases] == ["mycorpus/bare/x.000001", "mycorpus/cut", "mycorpus/good", "mycorpus/wrong"]
    assert [c.annotated for c in cases] == [False, True, True, True]

    rc, records = run_cli(tmp_path, "--parser", "oracle", "--corpus", str(corpus))
    got = {r["case"]: r for r in records}
    assert rc == 1
    assert got["mycorpus/good"]["outcome"] == "pass"
    assert got["mycorpus/good"]["server_version"] == "8.0.2"  # from case.json
    assert got["mycorpus/cut"]["outcome"] == "pass"
    assert got["mycorpus/bare/x.000001"]["outcome"] == "pass"
    wrong_result = got["mycorpus/wrong"]
    assert wrong_result["outcome"] == "mismatch"
    assert wrong_result["diffs"][0]["path"] == "timestamp"


def test_accept_either_case_allows_decoding_past_the_expected_rejection(tmp_path):
    first = [decode_file(GOOD[0]).__next__().to_json()]
    stop = {"error": {"kind": "BadEventBody", "offset": 130}}
    corpus = tmp_path / "c"
    _case(corpus, "either", GOOD[0], [*first, stop], {"accept_rejection": True})
    _case(corpus, "strict", GOOD[0], [*first, stop])
    rc, records = run_cli(tmp_path, "--parser", "oracle", "--corpus", str(corpus))
    got = {r["case"]: r for r in records}
    assert got["c/either"]["outcome"] == "pass"
    assert got["c/strict"]["outcome"] == "mismatch"
    assert got["c/strict"]["message"].startswith("accepted a file that must be rejected (BadEventBody at offset 130")
    assert rc == 1


def test_generator_case_layout(tmp_path):
    """generators/casefile.py: case.json lists files, server is {flavor, version}, and each
    binlog has its own <file>.expected.jsonl."""
    d = tmp_path / "corpus" / "mariadb-10.5" / "basic--row"
    d.mkdir(parents=True)
    (d / "case.json").write_text(json.dumps({"server": {"flavor": "mariadb", "version": "10.5.23"},
                                             "files": [GOOD[3].name]}))
    (d / GOOD[3].name).symlink_to(GOOD[3])
    lines = [json.dumps(e.to_json()) for e in decode_file(GOOD[3])]
    (d / f"{GOOD[3].name}.expected.jsonl").write_text("\n".join(lines) + "\n")
    (d / f"{GOOD[3].name}.vvv.txt").write_text("# not a binlog\n")
    (case,) = discover(tmp_path / "corpus")
    assert case.id == "corpus/mariadb-10.5/basic--row" and case.annotated
    rc, records = run_cli(tmp_path, "--parser", "oracle", "--corpus", str(tmp_path / "corpus"))
    assert rc == 0 and records[0]["server_version"] == "10.5.23-MariaDB"
