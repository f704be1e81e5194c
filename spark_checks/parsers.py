"""The parsers a run names, as picklable specs: each executor builds its own testees from them,
through the harness's launchers, so a parser runs under the same contract and isolation (its own
process, time and memory limits) on an executor as in `python -m harness conformance`."""
from __future__ import annotations

from dataclasses import dataclass

from harness.isolation import Limits
from harness.plugins import launch
from harness.runner import Target

PLUGIN, COMMAND, PERSISTENT = "plugin", "cmd", "persistent"
_LAUNCHERS = {PLUGIN: launch.python_plugin, COMMAND: launch.oneshot_command,
              PERSISTENT: launch.persistent_command}


@dataclass(frozen=True)
class ParserSpec:
    kind: str  # plugin (a Python plugin name), cmd (one-shot command), persistent (command)
    spec: str
    label: str  # the name results carry: the plugin name, or the command's hello name

    def target(self, limits: Limits) -> Target:
        return Target(self.label, _LAUNCHERS[self.kind](self.spec, limits))


def resolve(plugins: list[str], commands: list[str], persistent: list[str], limits: Limits) -> list[ParserSpec]:
    """Specs with their labels, named as the harness CLI names them: a plugin by the name the user
    gave, a command by its hello. Runs each command once on the driver to ask its name."""
    specs = [ParserSpec(PLUGIN, name, name) for name in plugins]
    for kind, cmds in ((COMMAND, commands), (PERSISTENT, persistent)):
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
