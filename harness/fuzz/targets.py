"""The Parse a fuzz --parser names: an in-process harness plugin (a built-in Python parser, an
entry point, or module:attribute; a stream plugin is served by the primary, stream_target.py), a
parser in a process of its own (a runtime parser of the registry, or `--parser-stream CMD`:
testee_target.py), and the differential Parse that compares any of them with the oracle."""
from __future__ import annotations

from typing import Any

from . import stream_target, testee_target
from .outcome import Outcome, Parse, disagreement, oracle_parse, plugin_outcome


def plugin_parse(spec: str, timeout: float | None = None) -> Parse:
    return _plugin_parse(spec, timeout)[0]


def _plugin_parse(spec: str, timeout: float | None = None) -> tuple[Parse, Any]:
    """(Parse, what declares its capabilities). An in-process plugin reads paths, so each input
    goes through a temporary file in /dev/shm when there is one. ParseError and Unsupported are
    clean outcomes; anything else escapes, as the engines expect of a crash. `timeout`: seconds per
    input for a parser in a process of its own (its silence past it is a TesteeHang)."""
    from harness.plugins.registry import load

    own_process = testee_target.parse_of(spec, timeout)
    if own_process is not None:
        return own_process
    plugin = load(spec)
    reason = plugin.unavailable_reason()
    if reason:
        raise testee_target.ParserUnavailable(f"parser {spec} is unavailable here: {reason}")
    if getattr(plugin, "transport", "file") == stream_target.STREAM:  # served by the primary
        return stream_target.plugin_parse(plugin), plugin
    return testee_target.through_file(lambda path: plugin_outcome(plugin.parse, path)), plugin


def differential_parse(spec: str, timeout: float | None = None) -> Parse:
    """A Parse over a plugin that also decodes each input with the oracle and sets
    `disagreement` when the two differ, judged as the conformance runner judges a case
    (harness/classify.py over harness/compare.py): the outcome class (a rejection where the
    oracle accepts, an acceptance where it rejects an event the parser claims to decode), and,
    where both decode, every canonical field within the parser's declared capabilities.
    A parser that declines the input (Unsupported) is not compared."""
    parse, plugin = _plugin_parse(spec, timeout)
    caps = plugin.capabilities
    reference = getattr(parse, "reference", oracle_parse)  # a stream parse's: the events as sent
    compared = getattr(parse, "compared", lambda o: o)  # ... and what it reported of them

    def both(data: bytes) -> Outcome:
        got = parse(data)
        if got.error_kind != "Unsupported" and got.disagreement is None:
            got.disagreement, got.disagreement_key = disagreement(reference(data), compared(got), caps)
        return got
    return both
