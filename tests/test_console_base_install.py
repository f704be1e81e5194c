"""The base install (the wheel without extras, as docs/gating-ci.md's recipe installs it) runs every
command's argument parsing: no optional dependency (PyMySQL, psutil, testcontainers, docker,
atheris, pyspark) is imported until a command that needs it runs. tests/test_installed_suite.py
shows the same with a real wheel, much later in the suite; this fails in seconds."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("pymysql", "psutil", "testcontainers", "docker", "atheris", "pyspark", "pymysqlreplication")

_PROBE = f"""
import sys
for name in {OPTIONAL!r}:
    sys.modules[name] = None  # importing it now raises ImportError, as in a base install
from harness.console import main
try:
    main(["--help"])
except SystemExit as e:
    assert e.code == 0, e.code
for command in ("faults", "serve", "run", "conformance"):
    try:
        main([command, "--help"])
    except SystemExit as e:
        assert e.code == 0, (command, e.code)
"""


def test_every_command_parses_its_arguments_without_the_optional_dependencies() -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
