"""harness/parsers/registry.py is the one list of built-in parsers: every entry has what it needs
to run and to be gated (its folder, manifest, lock and adapter for a runtime parser; its plugin
class for a Python one; harness/expected/<name>.txt for all), every parser folder belongs to an
entry, and no other file of the project lists parser names."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from harness.parsers.registry import BY_NAME, FILE, PARSERS, STREAM
from harness.plugins.registry import BUILTINS, ENTRY_POINT_GROUP
from harness.runtimes import folder_of, runtime_of
from harness.runtimes.base import PARSERS_DIR, Runtime

ROOT = Path(__file__).resolve().parent.parent
EXPECTED_DIR = ROOT / "harness" / "expected"
SHARED_SUFFIX = "-shared"  # harness/parsers/<runtime>-shared/: code every adapter of a runtime uses
REGISTRY = ROOT / "harness" / "parsers" / "registry.py"
# Where a list of parser names could hide: the project's code and its build and CI files.
SCANNED = [*(p for pkg in ("harness", "spark_checks", "generators", "oracle") for p in (ROOT / pkg).rglob("*.py")),
           ROOT / "noxfile.py"]


def test_names_are_unique_and_well_formed() -> None:
    assert len(BY_NAME) == len(PARSERS)
    for p in PARSERS:
        assert re.fullmatch(r"[a-z0-9][a-z0-9.-]*", p.name), p.name
        assert p.transport in (FILE, STREAM), p
        assert p.language and p.library, p


@pytest.mark.parametrize("entry", PARSERS, ids=lambda p: p.name)
def test_every_parser_has_its_expected_failures_file(entry) -> None:
    assert (EXPECTED_DIR / f"{entry.name}.txt").is_file()


@pytest.mark.parametrize("entry", [p for p in PARSERS if p.in_process], ids=lambda p: p.name)
def test_a_python_parser_names_its_plugin_class(entry) -> None:
    module, _, attr = entry.target.partition(":")
    plugin = getattr(importlib.import_module(module), attr)
    assert getattr(plugin, "transport", FILE) == entry.transport
    assert BUILTINS[entry.name] == entry.target


@pytest.mark.parametrize("entry", [p for p in PARSERS if not p.in_process], ids=lambda p: p.name)
def test_a_runtime_parser_has_its_runtime_folder_manifest_lock_and_adapter(entry) -> None:
    runtime = runtime_of(entry)
    assert isinstance(runtime, Runtime) and runtime.name == entry.runtime
    folder = folder_of(entry)
    assert folder.is_dir(), f"{entry.name}: no folder {folder}"
    assert runtime.required_files, f"runtime {runtime.name} declares no required_files"
    missing = [f for f in runtime.required_files if not (folder / f).is_file()]
    assert not missing, f"{entry.name}: {folder} lacks {missing}"
    assert runtime.pinned_version(folder, entry.library), f"{entry.name}: the lock pins no {entry.library}"
    assert entry.name not in BUILTINS


def test_every_parser_folder_belongs_to_an_entry() -> None:
    """A runtime parser's folder is its target; an in-process parser's holds its manifest only
    (harness/manifests.py); a fuzz targets' folder (issue 31) belongs to its native target
    (harness/fuzz/native/TARGETS)."""
    from harness.fuzz.native import TARGETS
    from harness.manifests import MANIFEST, folder_of
    targets = {p.target for p in PARSERS if not p.in_process}
    manifest_only = {folder_of(p) for p in PARSERS if p.in_process}
    fuzz_folders = {t.folder for t in TARGETS.values() if t.folder}
    folders = {d.name for d in PARSERS_DIR.iterdir()
               if d.is_dir() and d.name != "__pycache__" and not d.name.endswith(SHARED_SUFFIX)}
    assert folders == targets | manifest_only | fuzz_folders
    assert not fuzz_folders & targets
    for name in manifest_only:
        assert [f.name for f in (PARSERS_DIR / name).iterdir()] == [MANIFEST]


def test_nothing_but_the_registry_lists_parser_names() -> None:
    """No tuple, list, set or dict literal outside the registry holds two or more registered names
    (a second list would drift), and pyproject.toml declares none as an entry point."""
    names = set(BY_NAME)
    offenders = []
    for path in SCANNED:
        if path == REGISTRY:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if not isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)) or items is None:
                continue
            listed = {i.value for i in items if isinstance(i, ast.Constant) and i.value in names}
            if len(listed) >= 2:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {sorted(listed)}")
    assert offenders == []
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'[project.entry-points."{ENTRY_POINT_GROUP}"]' not in pyproject
    assert not [n for n in names if re.search(rf'^"?{re.escape(n)}"?\s*=\s*"[\w.]+:', pyproject, re.M)]
