"""tests/tiers.py: the tier table names real files, and a test that asks for a server is never in
the fast tier (`nox -s quick` must run without Docker)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import tiers

TESTS = Path(__file__).resolve().parent


def test_every_file_in_the_table_exists() -> None:
    assert sorted(f for f in tiers.FILES if not (TESTS / f).is_file()) == []


def test_the_table_says_why() -> None:
    assert all(marker in ("server", "build") and why for marker, why in tiers.FILES.values())


@pytest.mark.parametrize("expr", ["quick and (server or build)", "not quick and not server and not build"])
def test_each_test_has_exactly_one_tier(expr: str) -> None:
    """Over the whole collection: nothing quick also needs a server or a build, nothing is untiered."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS.parent), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-m", expr], cwd=TESTS.parent, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 5 and "no tests collected" in out.stdout, out.stdout[-3000:]


def test_a_sample_binlog_test_is_a_server_test() -> None:
    class Item:
        fixturenames = ("sample_binlog", "profile")
        path = TESTS / "test_roundtrip.py"

        def get_closest_marker(self, name):
            return None

    assert tiers.tier(Item()) == "server"


def test_what_runs_outside_ci_names_real_tests_and_says_why() -> None:
    """Every OUTSIDE_CI key is a test file, or `file::function` of a function defined in it."""
    for key, why in tiers.OUTSIDE_CI.items():
        name, _, function = key.partition("::")
        assert (TESTS / name).is_file(), key
        assert not function or f"def {function}(" in (TESTS / name).read_text(encoding="utf-8"), key
        assert len(why) > 40, key


def test_grouped_tests_come_first_each_side_in_collection_order() -> None:
    class Item:
        def __init__(self, name: str, group: bool) -> None:
            self.name, self.group = name, group

        def get_closest_marker(self, name):
            return object() if self.group and name == "xdist_group" else None

    items = [Item("a", False), Item("b", True), Item("c", False), Item("d", True)]
    assert [i.name for i in tiers.grouped_first(items)] == ["b", "d", "a", "c"]
