"""In-process plugins that misbehave, for the isolation tests (loaded as module:attribute)."""
from __future__ import annotations

from harness.plugins.base import BaseParser


class Raising(BaseParser):
    name = "raising"

    def parse(self, path):
        return [{"n": 1 / 0}]


class Greedy(BaseParser):
    name = "greedy"

    def parse(self, path):
        return [bytearray(2**30)]  # 1 GiB: beyond the memory limit the test sets
