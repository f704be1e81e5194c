"""Where the suite's own time goes (issue 30, docs/speed.md "The suite's own time").

An opt-in pytest plugin: with SUITE_PROFILE=FILE in the environment (tests/conftest.py loads it, so
`SUITE_PROFILE=FILE nox -s tests` works) it writes one JSON line per test (wall seconds of setup,
call and teardown; CPU seconds; server containers started in each phase) and one
per fixture set-up that took over 0.5 s or started a container (its name, scope, the test that
paid for it). Counting containers is done at testcontainers' DockerContainer.start, the one door
every server of the suite goes through (generators/server.py running_server). Under xdist each
worker appends its own lines to the same file.

    python -m tests.suite_profile FILE     # the tables: per file, the slowest tests and fixtures
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

_started = [0]  # containers started so far in this process


def _count_starts() -> None:
    try:
        from testcontainers.core.container import DockerContainer  # noqa: PLC0415
    except ImportError:
        return
    if getattr(DockerContainer.start, "_suite_profile", False):
        return
    original = DockerContainer.start

    def start(self, *a, **k):
        _started[0] += 1
        return original(self, *a, **k)

    start._suite_profile = True  # type: ignore[attr-defined]
    DockerContainer.start = start  # type: ignore[method-assign]


def _write(record: dict) -> None:
    out = os.environ.get("SUITE_PROFILE")
    if out:
        record["worker"] = os.environ.get("PYTEST_XDIST_WORKER", "")
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    _count_starts()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    t0, c0 = time.monotonic(), _started[0]
    yield
    took, containers = time.monotonic() - t0, _started[0] - c0
    if took > 0.5 or containers:
        _write({"fixture": fixturedef.argname, "scope": fixturedef.scope, "test": request.node.nodeid,
                "seconds": round(took, 3), "containers": containers})


def _cpu() -> float:
    """CPU seconds of this worker and of the children it has waited for (a test's subprocesses:
    parsers, builds, child pytest runs); server containers are not its children and not counted."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    phases: dict[str, list[float]] = {}
    item._suite_profile = phases  # type: ignore[attr-defined]
    t0, cpu0, started = time.monotonic(), _cpu(), time.time()
    yield
    _write({"test": item.nodeid, "wall": round(time.monotonic() - t0, 3), "cpu": round(_cpu() - cpu0, 3),
            "started": round(started, 1), **{k: v[0] for k, v in phases.items()},
            "containers": sum(v[1] for v in phases.values())})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    t0, c0 = time.monotonic(), _started[0]
    yield
    item._suite_profile["setup"] = [round(time.monotonic() - t0, 3), _started[0] - c0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    t0, c0 = time.monotonic(), _started[0]
    yield
    item._suite_profile["call"] = [round(time.monotonic() - t0, 3), _started[0] - c0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    t0, c0 = time.monotonic(), _started[0]
    yield
    item._suite_profile["teardown"] = [round(time.monotonic() - t0, 3), _started[0] - c0]


def report(path: Path, top: int = 20) -> str:
    tests, fixtures = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        (fixtures if "fixture" in r else tests).append(r)
    per_file: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    for r in tests:
        f = per_file[r["test"].split("::")[0]]
        f[0] += 1
        f[1] += r["wall"]
        f[2] += r["containers"]
    total = sum(r["wall"] for r in tests)
    lines = [f"{len(tests)} tests, {total:.0f} s of test time (setup+call+teardown summed over workers), "
             f"{sum(r['containers'] for r in tests)} server containers started", "",
             "| file | tests | seconds | share | containers |", "|---|---:|---:|---:|---:|"]
    for name, (n, s, c) in sorted(per_file.items(), key=lambda kv: -kv[1][1])[:40]:
        lines.append(f"| {name} | {n} | {s:.0f} | {100 * s / max(total, 1e-9):.1f}% | {c} |")
    lines += ["", f"Slowest {top} tests (wall, incl. the module fixtures they paid for):", "",
              "| test | seconds | setup | call | containers |", "|---|---:|---:|---:|---:|"]
    for r in sorted(tests, key=lambda r: -r["wall"])[:top]:
        lines.append(f"| {r['test']} | {r['wall']:.1f} | {r.get('setup', 0):.1f} | {r.get('call', 0):.1f} | {r['containers']} |")
    lines += ["", f"Slowest {top} fixture set-ups:", "", "| fixture | scope | seconds | containers | paid by |",
              "|---|---|---:|---:|---|"]
    for r in sorted(fixtures, key=lambda r: -r["seconds"])[:top]:
        lines.append(f"| {r['fixture']} | {r['scope']} | {r['seconds']:.1f} | {r['containers']} | {r['test']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 20))
