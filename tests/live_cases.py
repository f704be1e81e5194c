"""Run scenarios on a real local server through the generator's own code path (as
`python -m generators generate` does) and return the case directories it wrote. Shared by the
tests that check what real servers write during the test run."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators import docker_env, matrix
from generators.generate import Run, execute_run
from generators.profiles import LOCAL_PROFILES
from generators.sqlscript import Scenario


def run_live(profile_name: str, scenarios: tuple[Scenario, ...], out: Path,
             config: str = "row") -> list[Path]:
    """Skips (a failure under CI=true) when Docker or the image is missing."""
    reason = docker_env.unavailable_reason()
    if reason:
        pytest.skip(reason)
    profile = LOCAL_PROFILES[profile_name]
    if not docker_env.image_exists(profile.image):
        pytest.skip(f"image {profile.image} missing: run `python -m generators images build`")
    failures: list[str] = []
    dirs = execute_run(Run(profile, matrix.CONFIGS[config], scenarios), out, failures)
    assert not failures, failures
    assert len(dirs) == len(scenarios)
    return dirs
