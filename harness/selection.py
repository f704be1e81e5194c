"""The parser-selection flags, added and resolved in one place for every entry point that takes
parsers (`harness conformance`, `harness fuzz`, `harness faults`, `spark_checks run|bench`):

    --parser NAME             a registered parser (python -m harness list), an entry point, or
                              module:attribute; runtime parsers (node, jvm, go, rust) included
    --parser-cmd CMD          a one-shot command: `CMD FILE` prints canonical JSON lines
    --parser-stream CMD       a one-shot stream command, given the StreamSource as flags
    --parser-persistent CMD   a persistent command speaking the JSON-lines protocol

A ParserSpec is picklable (the Spark executors build their own testees from it) and makes its
testee through harness/plugins/launch.py, so a parser runs under the same contract wherever it
is named."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Iterable, Sequence

from .isolation import Limits
from .plugins import launch
from .plugins.launch import Testee
from .runner import Target

PLUGIN, COMMAND, PERSISTENT, STREAM_COMMAND = "plugin", "cmd", "persistent", "stream"
ALL_KINDS = (PLUGIN, COMMAND, STREAM_COMMAND, PERSISTENT)
FLAGS = {PLUGIN: "--parser", COMMAND: "--parser-cmd", STREAM_COMMAND: "--parser-stream",
         PERSISTENT: "--parser-persistent"}
DESTS = {kind: flag[2:].replace("-", "_") for kind, flag in FLAGS.items()}
HELP = {
    PLUGIN: "a registered parser (python -m harness list: Python plugins and the node/jvm/go/rust "
            "runtime parsers), an entry point, or module:attribute",
    COMMAND: "a one-shot command: `CMD FILE` prints canonical JSON lines",
    STREAM_COMMAND: "a one-shot stream command: `CMD --host H --port P ... --end-position N` reads "
                    "each input from the harness's primary (docs/plugin-contract.md)",
    PERSISTENT: "a persistent command speaking the JSON-lines protocol",
}
_LAUNCHERS = {PLUGIN: launch.named, COMMAND: launch.oneshot_command,
              PERSISTENT: launch.persistent_command, STREAM_COMMAND: launch.stream_command}


@dataclass(frozen=True)
class ParserSpec:
    kind: str   # PLUGIN, COMMAND, PERSISTENT or STREAM_COMMAND
    spec: str   # the name or the command line
    label: str  # the name results carry: the name given, or a command's hello name

    def testee(self, limits: Limits) -> Testee:
        return _LAUNCHERS[self.kind](self.spec, limits)

    def target(self, limits: Limits) -> Target:
        return Target(self.label, self.testee(limits))


def add_flags(p: argparse.ArgumentParser, kinds: Sequence[str] = ALL_KINDS, repeat: bool = True,
              extra_help: dict[str, str] | None = None) -> None:
    """The flags of `kinds`; repeatable (lists) or one value each (repeat=False: None when absent)."""
    for kind in kinds:
        text = HELP[kind] + (extra_help or {}).get(kind, "") + (" (repeatable)" if repeat else "")
        metavar = "NAME" if kind == PLUGIN else "CMD"
        if repeat:
            p.add_argument(FLAGS[kind], dest=DESTS[kind], action="append", default=[], metavar=metavar, help=text)
        else:
            p.add_argument(FLAGS[kind], dest=DESTS[kind], default=None, metavar=metavar, help=text)


def chosen(args: argparse.Namespace, kinds: Sequence[str] = ALL_KINDS) -> list[tuple[str, str]]:
    """(kind, spec) for every parser the flags name, in flag order."""
    out = []
    for kind in kinds:
        value = getattr(args, DESTS[kind], None)
        values = value if isinstance(value, list) else ([value] if value else [])
        out.extend((kind, v) for v in values)
    return out


def label_of(kind: str, spec: str, limits: Limits) -> str:
    """A name is its own label; a command is named by its hello (started once to ask)."""
    if kind == PLUGIN:
        return spec
    testee = _LAUNCHERS[kind](spec, limits)
    try:
        hello = testee.hello()
        return hello.name if hello else spec.split()[0]
    finally:
        testee.close()


def resolve_chosen(pairs: Iterable[tuple[str, str]], limits: Limits) -> list[ParserSpec]:
    specs = [ParserSpec(kind, spec, label_of(kind, spec, limits)) for kind, spec in pairs]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"two parsers share a name: {labels}")
    return specs


def resolve(plugins: Sequence[str], commands: Sequence[str], persistent: Sequence[str], limits: Limits,
            streams: Sequence[str] = ()) -> list[ParserSpec]:
    """Specs for lists of names and commands (the flags' values), labelled."""
    return resolve_chosen([*((PLUGIN, s) for s in plugins), *((COMMAND, s) for s in commands),
                           *((PERSISTENT, s) for s in persistent), *((STREAM_COMMAND, s) for s in streams)],
                          limits)


def from_args(args: argparse.Namespace, limits: Limits, kinds: Sequence[str] = ALL_KINDS) -> list[ParserSpec]:
    return resolve_chosen(chosen(args, kinds), limits)
