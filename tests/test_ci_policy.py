"""tests/conftest.py's CI policy, run in a child pytest: under CI=true a skip fails, whether the
test skips while running or its whole file skips while collecting (a module-level
pytest.importorskip); without CI both are skips."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPS = {
    "test_skip_at_collection.py": "import pytest\npytest.importorskip('no_such_module_binlog_conformance')\n\n"
                                  "def test_never():\n    pass\n",
    "test_skip_at_run.py": "import pytest\n\ndef test_skips():\n    pytest.skip('nothing here')\n",
}


@pytest.mark.parametrize("workers", [(), ("-n", "2", "--dist", "loadgroup")], ids=["serial", "xdist"])
@pytest.mark.parametrize("name", sorted(SKIPS))
@pytest.mark.parametrize("ci", ["true", ""])
def test_a_skip_fails_only_under_ci(name: str, ci: str, workers: tuple[str, ...], tmp_path: Path) -> None:
    """Also under pytest-xdist (nox -s tests runs with -n): the hooks run in each worker."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8")
    (tests / name).write_text(SKIPS[name], encoding="utf-8")
    env = {**os.environ, "CI": ci, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                          *workers, str(tests / name)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    if ci:
        assert out.returncode != 0 and "a skip is a failure in CI" in out.stdout, out.stdout
    else:
        assert out.returncode in (0, 5) and "1 skipped" in out.stdout, out.stdout  # 5: nothing left to run
