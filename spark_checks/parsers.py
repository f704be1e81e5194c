"""The parsers a run names, as picklable specs: each executor builds its own testees from them,
through the harness's launchers, so a parser runs under the same contract and isolation (its own
process, time and memory limits) on an executor as in `python -m harness conformance`.

A stream parser (a plugin whose hello says transport "stream", the Node peers, or a one-shot
`--parser-stream CMD`) is served each input by a primary the executor's own Python process
starts for it, on 127.0.0.1 and a free port (harness/stream_serving.py, through run_case), as
the conformance runner does: nothing of it crosses the cluster."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from harness.isolation import Limits
from harness.plugins import launch
from harness.runner import Target

PLUGIN, COMMAND, PERSISTENT, STREAM_COMMAND = "plugin", "cmd", "persistent", "stream"
_LAUNCHERS = {PLUGIN: launch.python_plugin, COMMAND: launch.oneshot_command,
              PERSISTENT: launch.persistent_command, STREAM_COMMAND: launch.stream_command}


@dataclass(frozen=True)
class ParserSpec:
    kind: str  # plugin (a Python plugin name), cmd (one-shot command), persistent (command),
    # stream (a one-shot stream command, --parser-stream)
    spec: str
    label: str  # the name results carry: the plugin name, or the command's hello name

    def target(self, limits: Limits) -> Target:
        return Target(self.label, _LAUNCHERS[self.kind](self.spec, limits))


def resolve(plugins: list[str], commands: list[str], persistent: list[str], limits: Limits,
            streams: Sequence[str] = ()) -> list[ParserSpec]:
    """Specs with their labels, named as the harness CLI names them: a plugin by the name the user
    gave, a command by its hello. Runs each command once on the driver to ask its name."""
    specs = [ParserSpec(PLUGIN, name, name) for name in plugins]
    for kind, cmds in ((COMMAND, commands), (PERSISTENT, persistent), (STREAM_COMMAND, streams)):
        for cmd in cmds:
            testee = _LAUNCHERS[kind](cmd, limits)
            try:
                hello = testee.hello()
                label = hello.name if hello else cmd.split()[0]
            finally:
                testee.close()
            specs.append(ParserSpec(kind, cmd, label))
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"two parsers share a name: {labels}")
    return specs
