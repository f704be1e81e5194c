"""Find parser plugins by name: the built-ins, the entry-point group `binlog_conformance.parsers`
(how third-party Python parsers plug in), or an explicit `module:attribute`."""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from ..parsers.registry import BY_NAME, PARSERS
from .base import Parser

ENTRY_POINT_GROUP = "binlog_conformance.parsers"

# The in-process built-ins, from the one registry (harness/parsers/registry.py); its runtime
# parsers (node, jvm, ...) are started by harness/plugins/launch.py, not loaded here.
BUILTINS = {p.name: p.target for p in PARSERS if p.in_process}


class PluginNotFound(LookupError):
    pass


def known() -> dict[str, str]:
    """name -> "module:attribute" for every in-process plugin --parser can name (the registry's
    Python parsers and the entry points of third-party plugins)."""
    names = dict(BUILTINS)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in BY_NAME:  # a registered name is the registry's, whatever an old install declared
            names.setdefault(ep.name, ep.value)
    return names


def _resolve(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def load(spec: str) -> Parser:
    """A plugin instance. The registered object is a class or factory called with no arguments."""
    target = known().get(spec) or (spec if ":" in spec else None)
    if target is None:
        raise PluginNotFound(f"no parser plugin named {spec!r} (known: {', '.join(sorted(known()))})")
    factory = _resolve(target)
    plugin = factory() if callable(factory) else factory
    if not isinstance(plugin, Parser):
        raise TypeError(f"{target} does not implement the Parser protocol")
    return plugin
