"""Canal alone: tests/library_alone/CanalAlone.java compiled against the jars the canal folder
builds, and its output read back. Shared by the live tests (tests/test_canal_live.py) and the
wire-fault findings (tests/test_wire_fault_findings_alone.py)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from harness.runtimes.jvm import RUNTIME
from tests.parser_builds import built_folder

SOURCE = Path(__file__).resolve().parent / "CanalAlone.java"


@pytest.fixture(scope="module")
def canal(tmp_path_factory) -> list[str]:
    """`java -cp <CanalAlone>:<Canal's jars> CanalAlone`: the program compiled once."""
    built = built_folder(RUNTIME, "canal")
    classes = tmp_path_factory.mktemp("canal-alone")
    jars = str(built / "lib" / "*")
    subprocess.run(["javac", "-cp", jars, "-d", str(classes), str(SOURCE)],
                   check=True, capture_output=True, timeout=300)
    return ["java", "-Duser.timezone=UTC", "-cp", f"{classes}:{jars}", "CanalAlone"]


def run(argv: list[str], *args: str) -> list[dict[str, Any]]:
    """CanalAlone's lines: one per event, then {"end"} or {"error"}."""
    proc = subprocess.run(argv + list(args), capture_output=True, text=True, timeout=180)
    lines = [json.loads(line) for line in proc.stdout.split("\n") if line]
    assert proc.returncode == 0 and lines and ("end" in lines[-1] or "error" in lines[-1]), proc.stderr[-2000:]
    return lines


def rows(lines: list[dict[str, Any]]) -> list[list[Any]]:
    """Every row image CanalAlone printed, in order."""
    return [image for line in lines for image in line.get("rows", [])]
