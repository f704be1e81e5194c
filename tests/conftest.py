"""Suite-wide policy: under CI=true a skipped test is a failure.

Tests skip when a server, a real tool or the external binlogs are missing, which is right on a
developer's machine and wrong in CI, where .ci/run installs all of them. A test that may skip even
in CI (it needs what a CI machine can never have, such as an official registry image) says so,
and why, with @pytest.mark.allow_skip_in_ci.
"""
from __future__ import annotations

import os

import pytest

from tests import tiers
from tests.sample_fixtures import sample_binlog, sample_dirs  # noqa: F401 (suite-wide fixtures)
from tests.server_pool import server_pool  # noqa: F401 (suite-wide: start_server's servers, reused)

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_skip_in_ci: a skip of this test is acceptable in CI")
    # SUITE_PROFILE=FILE: each test's wall and CPU seconds to FILE (tests/suite_profile.py); loaded
    # here, where `tests` imports, not with `-p`, which runs before the checkout is on sys.path
    if os.environ.get("SUITE_PROFILE") and not config.pluginmanager.has_plugin("tests.suite_profile"):
        from tests import suite_profile  # noqa: PLC0415
        config.pluginmanager.register(suite_profile, "tests.suite_profile")  # its pytest_configure runs too
    for name, what in tiers.MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the xdist_group markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tier markers (server, build, quick: tests/tiers.py) for `-m quick` and the xdist groups,
    the grouped tests first."""
    tiers.mark(items)
    items[:] = tiers.grouped_first(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not item.get_closest_marker("allow_skip_in_ci"):
        if getattr(report, "wasxfail", None) is not None:
            return  # an xfail is reported as a skip; it is not a missing dependency
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true (a skip is a failure in CI): {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """A skip while collecting (a module-level pytest.importorskip, pytest.skip(allow_module_level=
    True)) skips a whole file and never reaches pytest_runtest_makereport: under CI=true it is a
    collection error, which fails the run."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"{collector.nodeid} skipped while collecting under CI=true (a skip is a failure in CI): {reason}"
