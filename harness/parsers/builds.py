"""Build every runtime parser of the registry into the cache (`python -m harness peers install`)
and say, for each registered parser, its version and whether it can run here (`peers status`,
`python -m harness list`). The runtime of an entry is imported by name, so a new runtime module
needs no list here."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from ..isolation import Limits
from .registry import PARSERS, BuiltinParser

READY = "ready"
Say = Callable[[str], None]


@dataclass(frozen=True)
class ParserState:
    entry: BuiltinParser
    version: str
    state: str  # READY, or why it cannot run here (ending with the command that provides it)


def _runtime_state(entry: BuiltinParser) -> ParserState:
    from ..runtimes import folder_of, runtime_of
    runtime, folder = runtime_of(entry), folder_of(entry)
    reason = runtime.unavailable_reason(folder)
    return ParserState(entry, runtime.pinned_version(folder, entry.library) or "?", reason or READY)


def _python_state(entry: BuiltinParser) -> ParserState:
    """An in-process plugin says its version and availability in its hello (through the worker,
    as a run would start it)."""
    from ..plugins.launch import python_plugin
    testee = python_plugin(entry.name, Limits())
    try:
        hello = testee.hello()
        if hello is None:
            failure = testee.start_failure()
            return ParserState(entry, "?", f"did not start: {failure.detail if failure else 'no hello'}")
        return ParserState(entry, hello.version, hello.unavailable or READY)
    finally:
        testee.close()


def state_of(entry: BuiltinParser) -> ParserState:
    return _python_state(entry) if entry.in_process else _runtime_state(entry)


def runtime_entries(names: tuple[str, ...] = ()) -> list[BuiltinParser]:
    """The runtime parsers (optionally only those named), one per folder: a stream testee and its
    -file twin share a build."""
    seen: dict[tuple[str, str], BuiltinParser] = {}
    for p in PARSERS:
        if not p.in_process and (not names or p.name in names):
            seen.setdefault((p.runtime, p.target), p)
    return list(seen.values())


def build_all(say: Say, force: bool = False, names: tuple[str, ...] = ()) -> list[str]:
    """Build each runtime parser folder; one that fails does not stop the others. Returns the
    failures, one line each, in registry order.

    The runtimes build side by side, each runtime's folders one after another: a build mostly
    waits on its registry (npm, Maven Central, the Go proxy, crates.io) or compiles on its own
    toolchain, and folders of one runtime share a package cache (the Maven repository, the cargo
    target directory) that is safest written by one build at a time."""
    from ..runtimes import folder_of, runtime_of
    from ..runtimes.base import BuildError
    entries = runtime_entries(names)
    by_runtime: dict[str, list[tuple[int, BuiltinParser]]] = {}
    for i, entry in enumerate(entries, 1):
        by_runtime.setdefault(entry.runtime, []).append((i, entry))
    lock = threading.Lock()

    def said(line: str) -> None:
        with lock:
            say(line)

    def build_runtime(group: list[tuple[int, BuiltinParser]]) -> list[tuple[int, str]]:
        failed = []
        for i, entry in group:
            runtime, folder = runtime_of(entry), folder_of(entry)
            said(f"[{i}/{len(entries)}] {folder.name} ({runtime.name}: {entry.library})")
            try:
                runtime.build(folder, lambda line, tag=folder.name: said(f"  {tag}: {line}"), force=force)
            except BuildError as e:
                failed.append((i, f"{folder.name} ({runtime.name}): {e}"))
                said(f"  {folder.name}: FAILED: {e}")
        return failed

    with ThreadPoolExecutor(max_workers=max(1, len(by_runtime))) as pool:
        results = list(pool.map(build_runtime, by_runtime.values()))
    return [line for _, line in sorted(f for failed in results for f in failed)]
