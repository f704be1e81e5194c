"""The oracle in the executor: a mutant's expectation decoded from its window's checkpoints
(harness/fuzz/resume.py), and the oracle's own answer as a parser taken from that decode.

Checking `--parser oracle` used to decode every input twice, once in the executor for the
expectation and once more in a harness worker process for the parser, its events serialised to
JSON between the two (issue 14). Where the expectation is the oracle's decode (bare binlogs and
every mutant) it already is the oracle's answer: the same code on the same bytes. An oracle
crash is still the oracle's crash (the expectation records it, its row says crash). Annotated
cases (expected.jsonl) still ask the worker."""
from __future__ import annotations

from dataclasses import dataclass

from harness.expectations import Expectation, from_decode
from harness.fuzz.resume import SeedDecode
from harness.plugins.base import FULL
from harness.plugins.protocol import CRASH, ERROR, EVENTS, ErrorInfo, Hello, Reply

ORACLE_PLUGIN = "oracle"
MAX_WINDOWS = 64  # decoded windows kept per partition (a batch of mutants shares at most 3)


class WindowDecodes:
    """The oracle's decode of each seed window, with checkpoints, made once per partition."""

    def __init__(self) -> None:
        self._by_window: dict[bytes, SeedDecode | None] = {}

    def of(self, window: bytes) -> SeedDecode | None:
        """None when the window itself crashes the oracle (its mutants are decoded whole)."""
        if window not in self._by_window:
            if len(self._by_window) >= MAX_WINDOWS:
                self._by_window.clear()
            try:
                self._by_window[window] = SeedDecode.of(window)
            except Exception:  # noqa: BLE001 - each mutant's own decode reports it
                self._by_window[window] = None
        return self._by_window[window]


def mutant_expectation(window: SeedDecode | None, data: bytes) -> Expectation:
    """What harness.expectations.from_oracle gives for the mutant's bytes, decoded only where they
    differ from the window's (window None: the window itself crashed the oracle)."""
    try:
        got = window.parse(data) if window is not None else SeedDecode.of(data).outcome
    except Exception as e:  # noqa: BLE001 - an oracle bug: the oracle's row shows it
        return Expectation([], problem=f"oracle failed: {type(e).__name__}: {e}")
    error = None if got.accepted else ErrorInfo(got.error_kind or "Error", got.error_offset, got.error_message)
    return from_decode(got.events, error, {})


def oracle_reply(exp: Expectation) -> Reply:
    """The oracle's answer as a parser, from the decode its expectation was made of."""
    if exp.problem:
        return Reply(CRASH, detail=exp.problem)
    return Reply(ERROR, exp.events, exp.error) if exp.error else Reply(EVENTS, exp.events)


def oracle_hello() -> Hello:
    from harness.plugins.oracle_plugin import OracleParser
    parser = OracleParser()
    return Hello(parser.name, parser.version, FULL)


@dataclass
class Replay:
    """A testee whose answer is already known (harness/plugins/launch.py's Testee protocol)."""

    hello_message: Hello
    reply: Reply

    def hello(self) -> Hello:
        return self.hello_message

    def start_failure(self) -> Reply | None:
        return None

    def parse(self, path: str) -> Reply:
        return self.reply

    def close(self) -> None:
        pass
