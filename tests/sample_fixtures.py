"""Sample binlogs written during the run by real servers, with the real tool's -vvv text beside
each (generators/samples.py), shared by every test of the session that asks for them.

A profile's server starts at most once per session, and only when a test asks for that profile.
Tests parametrize over `sample_params()` (known before any server starts: the parts are fixed
by generators/samples.py) and get the file with `sample_binlog(profile, part)`. Without Docker
or the image a test skips on a developer's machine and fails under CI=true (require_image).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators import profiles
from generators.samples import SAMPLE_PROFILES, parts, write_samples

PARTS: dict[str, tuple[str, ...]] = {
    name: tuple(p.name for p in parts(profiles.get(name))) for name in SAMPLE_PROFILES}


@dataclass(frozen=True)
class Sample:
    """One sample binlog and the real tool's text for it."""

    profile: str
    part: str
    path: Path

    @property
    def flavor(self) -> str:
        return profiles.get(self.profile).flavor

    @property
    def tool_text_path(self) -> Path:
        return self.path.with_name(self.path.name + ".vvv.txt")

    def tool_text(self) -> str:
        return self.tool_text_path.read_bytes().decode("utf-8", "surrogateescape")

    def manifest_entry(self) -> dict:
        files = json.loads((self.path.parent / "manifest.json").read_text())["files"]
        return next(f for f in files if f["file"] == self.path.name)


def sample_params(flavor: str | None = None, parts_: tuple[str, ...] | None = None) -> list:
    """pytest params (profile, part) for every sample of `flavor` (all when None)."""
    return [pytest.param(name, part, id=f"{name}/{part}")
            for name in SAMPLE_PROFILES if flavor is None or profiles.get(name).flavor == flavor
            for part in PARTS[name] if parts_ is None or part in parts_]


class _SampleDirs:
    """profile name -> the directory its samples were written to (written on first request).
    A failed write is remembered and re-raised: the server is not started again."""

    def __init__(self, root: Callable[[str], Path]) -> None:
        self._root = root
        self._dirs: dict[str, Path | BaseException] = {}

    def __call__(self, name: str) -> Path:
        from tests.server_fixtures import require_image  # noqa: PLC0415 (imports docker-py)
        require_image(profiles.get(name))
        if name not in self._dirs:
            try:
                self._dirs[name] = write_samples(profiles.get(name), self._root(name))
            except Exception as e:
                self._dirs[name] = e
        got = self._dirs[name]
        if isinstance(got, BaseException):
            raise RuntimeError(f"writing the {name} samples failed: {got}") from got
        return got


@pytest.fixture(scope="session")
def sample_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Path]]:
    """`sample_dirs(profile_name)` -> the directory of that profile's samples and manifest.json."""
    yield _SampleDirs(lambda name: tmp_path_factory.mktemp(f"samples-{name}"))


@pytest.fixture(scope="session")
def sample_binlog(sample_dirs: Callable[[str], Path]) -> Callable[[str, str], Sample]:
    """`sample_binlog(profile_name, part)` -> the Sample (written on first use of the profile)."""
    def get(name: str, part: str) -> Sample:
        path = sample_dirs(name) / f"{part}.binlog"
        assert path.is_file(), f"{path} was not written"
        return Sample(name, part, path)
    return get
