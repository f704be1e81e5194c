"""Build every runtime parser of the registry into the cache (`python -m harness peers install`)
and say, for each registered parser, its version and whether it can run here (`peers status`,
`python -m harness list`). The runtime of an entry is imported by name, so a new runtime module
needs no list here."""
from __future__ import annotations

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
    failures, one line each."""
    from ..runtimes import folder_of, runtime_of
    from ..runtimes.base import BuildError
    entries = runtime_entries(names)
    failures = []
    for i, entry in enumerate(entries, 1):
        runtime, folder = runtime_of(entry), folder_of(entry)
        say(f"[{i}/{len(entries)}] {folder.name} ({runtime.name}: {entry.library})")
        try:
            runtime.build(folder, lambda line, tag=folder.name: say(f"  {tag}: {line}"), force=force)
        except BuildError as e:
            failures.append(f"{folder.name} ({runtime.name}): {e}")
            say(f"  {folder.name}: FAILED: {e}")
    return failures
