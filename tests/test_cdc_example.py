"""docs/cdc.md's worked example, run as written: the commands of its `example:commands` block
(`harness peers install`, `harness serve` in the background, `harness stream` with Debezium's
embedded engine), with a free port for the documented 3307, must print exactly the lines of its
`example:output` block (as JSON values)."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server_fixtures import missing

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cdc.md"
DOC_PORT = "3307"


def _block(marker: str) -> str:
    m = re.search(rf"<!-- example:{marker}\b[^>]*-->\n```\w*\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert m, f"docs/cdc.md has no example:{marker} block"
    return m[1]


def _commands() -> list[list[str]]:
    """The block's shell lines, continuations joined, each split as a shell would."""
    return [shlex.split(line) for line in _block("commands").replace("\\\n", " ").splitlines() if line.strip()]


def _python(argv: list[str]) -> list[str]:
    assert argv[:3] == ["python", "-m", "harness"], argv
    return [sys.executable, *argv[1:]]


def _with_port(argv: list[str], port: str) -> list[str]:
    return [port if a == DOC_PORT and i and argv[i - 1] == "--port" else a for i, a in enumerate(argv)]


def test_the_example_is_install_serve_then_stream() -> None:
    install, serve, stream = _commands()
    assert install[3:5] == ["peers", "install"] and serve[3] == "serve" and serve[-1] == "&"
    assert stream[3] == "stream" and "--end-position" in stream
    case = ROOT / serve[4]
    # the documented end is the end of the case's last binlog
    end_file, end = stream[stream.index("--end-file") + 1], int(stream[stream.index("--end-position") + 1])
    assert (case / end_file).stat().st_size == end


@pytest.fixture
def serving() -> Iterator[str]:
    """The documented serve command, on a free port; yields the port."""
    serve = _with_port(_commands()[1][:-1], "0")
    proc = subprocess.Popen(_python(serve), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        m = re.match(r"listening on 127\.0\.0\.1:(\d+)", line)
        assert m, f"harness serve printed {line!r}"
        yield m[1]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_example_prints_the_documented_change_events(serving: str) -> None:
    install, _, stream = _commands()
    built = subprocess.run(_python(install), cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if built.returncode != 0:
        missing(f"`{shlex.join(install)}` failed: {built.stderr.strip()[-500:]}")
    run = subprocess.run(_python(_with_port(stream, serving)), cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    expected = [json.loads(line) for line in _block("output").splitlines()]
    assert len(expected) > 1
    # compared as JSON values: the adapter's key order inside nested events varies from run to run
    assert [json.loads(line) for line in run.stdout.splitlines()] == expected
