"""`###` lines from oracle/render_rows.py against the real `mysqlbinlog -vvv`, byte for byte.

References: the MySQL 9.7 image's mysqlbinlog run on every MySQL >= 5.6 external binlog, the
pinned MariaDB image's mariadb-binlog on the others (tests/pinned_tools.py), and the samples real
servers write during the run with their tool's output (tests/sample_fixtures.py). Hand-built
cases pin the odd rules.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generators.profiles import get
from oracle.decoder import decode_file
from oracle.render_rows import (Table, bit_string, quoted, quoted_mariadb, render, render_rows_event,
                                signed_unsigned, vector)
from tests.external import manifest
from tests.pinned_tools import external_mariadb_binlog
from tests.sample_fixtures import sample_params


def _hash_lines(text: bytes) -> list[bytes]:
    return [line for line in text.split(b"\n") if line.startswith(b"###")]


def _mine(path: Path) -> list[bytes]:
    return b"".join(render(e.to_json() for e in decode_file(path))).split(b"\n")[:-1]


def _assert_same_lines(mine: list[bytes], theirs: list[bytes]) -> None:
    """A short message, not pytest's difflib diff of two long listings (quadratic on failure)."""
    if mine != theirs:
        first = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        pytest.fail(f"{len(mine)} vs {len(theirs)} lines; first difference at line {first}: "
                    f"{mine[first:first + 1]!r} vs {theirs[first:first + 1]!r}")


def _mysql_56_plus():
    out = []
    for b in manifest():
        m = re.match(r"(\d+)\.(\d+)", b.server_version)
        if b.flavor == "mysql" and m and (int(m[1]), int(m[2])) >= (5, 6) and "truncated" not in b.name:
            out.append(b)
    return out


@pytest.mark.parametrize("binlog", _mysql_56_plus(), ids=lambda b: b.name)
def test_external_binlogs_match_real_mysqlbinlog(binlog):
    from generators.tools import run_mysqlbinlog  # noqa: PLC0415 (docker-py: the servers extra)
    from tests.server_fixtures import require_image  # noqa: PLC0415
    require_image(get("mysql-9.7"))
    ref = run_mysqlbinlog(binlog.path)
    assert ref.returncode == 0, ref.stderr[-300:]
    _assert_same_lines(_mine(binlog.path), _hash_lines(ref.stdout))


def _mariadb_binlog_references():
    """Files only mariadb-binlog reads: MariaDB's, and MySQL's older than 5.6."""
    out = []
    for b in manifest():
        m = re.match(r"(\d+)\.(\d+)", b.server_version)
        old = b.flavor == "mysql" and m and (int(m[1]), int(m[2])) < (5, 6)
        broken = any(x in b.name for x in ("bug40482", "wl2325", "corrupt", "truncated"))
        if (b.flavor == "mariadb" or old) and not broken:
            out.append(b)
    return out


@pytest.mark.parametrize("binlog", _mariadb_binlog_references(), ids=lambda b: b.name)
def test_external_binlogs_match_mariadb_binlog(binlog):
    ref = external_mariadb_binlog(binlog.path)
    assert ref.returncode == 0, ref.stderr[-300:]
    _assert_same_lines(_mine(binlog.path), _hash_lines(ref.stdout))


@pytest.mark.parametrize(("profile", "part"), sample_params())
def test_real_server_samples_match_their_mysqlbinlog_output(profile, part, sample_binlog):
    sample = sample_binlog(profile, part)
    _assert_same_lines(_mine(sample.path), _hash_lines(sample.tool_text_path.read_bytes()))


def test_value_rules():
    assert signed_unsigned(-1, 4) == b"-1 (4294967295)"
    assert signed_unsigned(4294967295, 4) == b"-1 (4294967295)"  # unsigned column, same print
    assert signed_unsigned({"type": "int", "value": str(2**64 - 1)}, 8) == b"-1 (18446744073709551615)"
    assert bit_string(b"\x04", 3) == b"b'100'"
    assert quoted(b"a'b\\c\n\x00\xc3\xa9") == b"'a\\'b\\\\c\\n\\x00\xc3\xa9'"
    assert vector(b"") == b"["
    assert quoted_mariadb(b"a'b\\c\n") == b"'a'b\\c\\x0a'"


def _table(types, metas):
    return Table.from_body({"schema": "d", "table": "t`x", "column_types": types, "column_metadata": metas,
                            "null_bitmap": "1" * len(types), "optional_metadata": []})


def test_dates_years_and_unknown_types():
    t = _table([10, 13, 11, 255, 3], [0, 0, 0, 4, 0])
    body = {"table_id": 1, "extra_data": None, "width": 5, "columns_after_image": "11111",
            "rows": [{"null_bitmap": "00010", "values": [{"type": "date", "value": "2024-00-15"}, 0,
                                                        {"type": "time", "value": "-00:00:01"}, None, 5]}]}
    lines = render_rows_event(30, body, t)
    assert lines == [
        b"### INSERT INTO `d`.`t``x`\n", b"### SET\n",
        b"###   @1='2024:00:15' /* DATE meta=0 nullable=1 is_null=0 */\n",
        b"###   @2=1900 /* YEAR meta=0 nullable=1 is_null=0 */\n",
        b"###   @3='1677:72:15' /* TIME meta=0 nullable=1 is_null=0 */\n",  # 3 bytes printed unsigned
        b"###   @4=!! Don't know how to handle column type=255 meta=4 (0004)\n",  # and the event ends
    ]


def test_empty_insert_and_unknown_table():
    t = _table([3], [0])
    assert render_rows_event(30, {"table_id": 1, "columns_after_image": "1", "rows": []}, t) == \
        [b"### INSERT INTO `d`.`t`x` VALUES ()\n"]
    assert render_rows_event(32, {"table_id": 9, "rows": []}, None) == [b"### Row event for unknown table #9"]
