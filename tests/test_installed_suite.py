"""A parser project adopts the suite without cloning it (issue 23): the distributions carry the
corpus and the command, and docs/gating-ci.md's plain-shell recipe, from a fresh virtual
environment outside the repository, gates the example parser with the corpus the wheel carries
(once: a second run of the installed command over the whole corpus proved nothing more)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from harness.corpus import discover
from tests.installed_suite import ROOT, build_distributions, clean_env, example_project

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is needed for the example parser")
pytest.importorskip("build", reason="python -m build (the test extra) builds the sdist and wheel")

CASES = len(discover(ROOT / "corpus"))


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_distributions(tmp_path_factory.mktemp("dist"))


def _gated_all(stderr: str) -> None:
    """The run's summary line names every packaged case and no unexpected or stale one."""
    m = re.search(r"^node-header-parser: (\d+) cases, \d+ expected failures, (\d+) unexpected, (\d+) stale$",
                  stderr, re.M)
    assert m, stderr[-2000:]
    assert (int(m[1]), int(m[2]), int(m[3])) == (CASES, 0, 0)


def test_distributions_carry_the_corpus_and_the_command(dists: tuple[Path, Path]) -> None:
    sdist, wheel = dists
    names = zipfile.ZipFile(wheel).namelist()
    packaged = {n for n in names if n.startswith("binlog_conformance_corpus/")}
    committed = {f"binlog_conformance_corpus/{p.relative_to(ROOT / 'corpus').as_posix()}"
                 for p in (ROOT / "corpus").rglob("*") if p.is_file()}
    assert committed <= packaged, sorted(committed - packaged)[:5]
    assert any(n.startswith("harness/expected/") for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "binlog-conformance = harness.console:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    with tarfile.open(sdist) as tar:
        assert any("/corpus/mysql-9.7/" in m for m in tar.getnames())


def shell_recipe() -> str:
    """The plain-shell recipe of docs/gating-ci.md, as written there."""
    text = (ROOT / "docs" / "gating-ci.md").read_text()
    m = re.search(r"<!-- recipe: shell -->\s*```sh\n(.*?)```", text, re.S)
    assert m, "docs/gating-ci.md has no block after <!-- recipe: shell -->"
    return m[1]


def test_shell_recipe_runs_end_to_end(dists: tuple[Path, Path], tmp_path: Path) -> None:
    """The recipe installs the wheel into a fresh environment outside the repository and gates the
    example parser with the packaged corpus: what a parser project's CI does."""
    project = example_project(tmp_path / "my-parser")
    (project / "ci").mkdir()
    shutil.move(project / "expected-failures.txt", project / "ci" / "binlog-expected-failures.txt")
    script = project / "ci" / "binlog-conformance.sh"
    script.write_text(shell_recipe())
    env = {**clean_env(), "BINLOG_CONFORMANCE": str(dists[1]), "PARSER_CMD": "node parse.js"}
    proc = subprocess.run(["sh", str(script)], cwd=project, capture_output=True, text=True, env=env,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    _gated_all(proc.stderr)
    assert (project / "conformance.xml").stat().st_size > 0
    # the installed command's other use, from the environment the recipe made
    decoded = subprocess.run([str(project / ".binlog-conformance" / "bin" / "binlog-conformance"), "decode",
                              str(ROOT / "corpus" / "mysql-9.7" / "json--row" / "binlog.000001")],
                             cwd=project, capture_output=True, text=True, env=clean_env(), check=True)
    assert decoded.stdout.count("\n") > 10
