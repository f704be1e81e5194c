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


class CrashingMidFile(BaseParser):
    """Delivers two events, then its library raises what is not a ParseError: a crash whose
    events before it must still be compared (the `crashed` reply)."""
    name = "crashing-mid-file"

    def parse(self, path):
        from harness.plugins.base import delivering
        from oracle import decode_file
        events = delivering([])
        for event in decode_file(path):
            events.append(event.to_json())
            if len(events) == 2:
                break
        raise IndexError("the library read past its buffer")
