"""Make a runnable testee from what the user named: a Python plugin (run through the worker,
isolated), a one-shot command, or a persistent command."""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Protocol

from ..isolation import Limits
from .oneshot import OneShotTestee
from .persistent import PersistentTestee
from .protocol import STREAM, Hello, Reply, StreamSource

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class Testee(Protocol):
    def hello(self) -> Hello | None: ...
    def start_failure(self) -> Reply | None: ...
    def parse(self, path: str, stream: StreamSource | None = None) -> Reply: ...
    def close(self) -> None: ...


def _worker_env() -> dict[str, str]:
    """The worker must import harness and oracle even when the project is not installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")]))
    return env


def python_plugin(spec: str, limits: Limits) -> Testee:
    return PersistentTestee([sys.executable, "-m", "harness.worker", spec], limits, _worker_env())


def oneshot_command(command: str, limits: Limits) -> Testee:
    return OneShotTestee(shlex.split(command), limits)


def stream_command(command: str, limits: Limits) -> Testee:
    """`--parser-stream CMD`: a one-shot command given the StreamSource as flags."""
    return OneShotTestee(shlex.split(command), limits, transport=STREAM)


def persistent_command(command: str, limits: Limits) -> Testee:
    return PersistentTestee(shlex.split(command), limits)
