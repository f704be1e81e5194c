"""Make a runnable testee from what the user named: a parser of the registry (an in-process
Python plugin run through the worker, or a runtime parser's adapter started once for the whole
run), a plugin by entry point or module:attribute, a one-shot command, or a persistent command."""
from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..isolation import Limits
from ..parsers.registry import BY_NAME, BuiltinParser
from .base import Capabilities
from .oneshot import OneShotTestee
from .persistent import PersistentTestee
from .protocol import STREAM, UNAVAILABLE, Hello, Reply, StreamSource

PROJECT_ROOT = Path(__file__).resolve().parents[2]
NOTHING = Capabilities(frozenset(), {}, every_event=False, partial_events=True)


class Testee(Protocol):
    def hello(self) -> Hello | None: ...
    def start_failure(self) -> Reply | None: ...
    def parse(self, path: str, stream: StreamSource | None = None) -> Reply: ...
    def close(self) -> None: ...


@dataclass
class UnavailableTestee:
    """A parser that cannot start here: its hello says why, and every case is unavailable."""

    said: Hello

    def hello(self) -> Hello:
        return self.said

    def start_failure(self) -> Reply | None:
        return None

    def parse(self, path: str, stream: StreamSource | None = None) -> Reply:
        return Reply(UNAVAILABLE, detail=self.said.unavailable or "unavailable")

    def close(self) -> None:
        pass


def _worker_env() -> dict[str, str]:
    """The worker must import harness and oracle even when the project is not installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    return env


def python_plugin(spec: str, limits: Limits) -> Testee:
    return PersistentTestee([sys.executable, "-m", "harness.worker", spec], limits, _worker_env())


def runtime_parser(entry: BuiltinParser, limits: Limits) -> Testee:
    """A runtime parser's adapter, started once for the run as `<runtime command> <transport>`;
    unavailable, saying which command provides it, when its toolchain or build is missing."""
    from ..runtimes import folder_of, runtime_of
    runtime, folder = runtime_of(entry), folder_of(entry)
    reason = runtime.unavailable_reason(folder)
    if reason is not None:
        version = runtime.pinned_version(folder, entry.library) or "unknown"
        return UnavailableTestee(Hello(entry.name, version, NOTHING, reason, entry.transport))
    return PersistentTestee(runtime.command(runtime.build_dir(folder)) + [entry.transport], limits)


def named(name: str, limits: Limits) -> Testee:
    """`--parser NAME`: a registered parser, an entry point, or module:attribute."""
    entry = BY_NAME.get(name)
    if entry is not None and not entry.in_process:
        return runtime_parser(entry, limits)
    return python_plugin(name, limits)


def oneshot_command(command: str, limits: Limits) -> Testee:
    return OneShotTestee(shlex.split(command), limits)


def stream_command(command: str, limits: Limits) -> Testee:
    """`--parser-stream CMD`: a one-shot command given the StreamSource as flags."""
    return OneShotTestee(shlex.split(command), limits, transport=STREAM)


def persistent_command(command: str, limits: Limits) -> Testee:
    return PersistentTestee(shlex.split(command), limits)
