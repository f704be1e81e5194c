"""Fuzzing a parser that runs as a process of its own: a runtime parser of the registry (node,
jvm, go, rust; its adapter started once, as in conformance, through harness/plugins/launch.py)
or a one-shot stream command (`--parser-stream CMD`, run once per input). A file testee gets
each input as a temporary file; a stream testee is served it by the primary (stream_target.py).

The testee belongs to the process that started it: a forked mutate child starts its own (the
parent's adapter pipes cannot be shared), as MutantPrimary does for the primary. A crashed or
hung adapter is restarted by PersistentTestee for the next input; its reply is the finding."""
from __future__ import annotations

import os
import tempfile
from typing import Any, Callable

from .crash_site import stderr_site
from .outcome import Outcome, Parse
from .stream_target import SERVED_NAME, serving_parse

COMMAND_PREFIX = "stream-cmd:"  # a fuzz --parser spec naming a one-shot stream command
# The testee's own time limit is the engine's per-input limit when it gives one (atheris times
# CPU of its own process, which a testee's loop in another process never spends), else a backstop.
BACKSTOP_TIMEOUT, MEMORY_MB = 600.0, 4096


class ParserUnavailable(RuntimeError):
    """The parser cannot run here (not built, a tool missing, did not start): the message says
    why, ending with the command that provides it."""


class TesteeCrash(Exception):
    """The testee died, hung past its backstop, or broke the contract. `site` is where, read from
    its stderr (crash_site.py), `log` that stderr's tail: the finding keeps both."""

    def __init__(self, message: str, site: str | None = None, log: str = "") -> None:
        super().__init__(message)
        self.site, self.log = site, log


class TesteeHang(TesteeCrash):
    """The testee gave no reply within its time limit: a hang, as the engines' own timers find."""


def outcome_of(reply: Any, what: str) -> Outcome:
    from harness.plugins.protocol import CRASH, ERROR, EVENTS, SKIPPED, TIMEOUT
    if reply.status == EVENTS:
        return Outcome(list(reply.events))
    if reply.status == ERROR and reply.error is not None:
        return Outcome(list(reply.events), reply.error.kind, reply.error.offset)
    if reply.status == SKIPPED:
        return Outcome([], "Unsupported", None)
    if reply.status == TIMEOUT:
        raise TesteeHang(f"{reply.status}: {reply.detail}", "Timeout", reply.log)
    if reply.status == CRASH:
        raise TesteeCrash(f"{reply.status}: {reply.detail}", stderr_site(reply.log), reply.log)
    raise RuntimeError(f"{what}: {reply.status}: {reply.detail}")


def through_file(read: Callable[[str], Outcome]) -> Parse:
    """A Parse that hands each input to `read` as a temporary file (in /dev/shm when there is one)."""
    tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

    def parse(data: bytes) -> Outcome:
        fd, path = tempfile.mkstemp(prefix="binlog-fuzz-", dir=tmp_dir)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            return read(path)
        finally:
            os.unlink(path)
    return parse


class PerProcess:
    """One testee per process: made on first use, and afresh in a forked child."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.pid = 0
        self.testee: Any = None

    def get(self) -> Any:
        if self.pid != os.getpid():
            self.testee, self.pid = self.make(), os.getpid()  # a fork's inherited one is the parent's
        return self.testee

    def reply(self, *request: Any) -> Any:
        """The testee's reply to one request. An engine's timer (a Hang) or any other exception
        that interrupts the wait kills the testee: left running, it would still be busy with
        this input when the next one came, and its late reply would be read as the next one's
        (a hang counted two or three times, or a reply-id crash of the next input)."""
        testee = self.get()
        try:
            return testee.parse(*request)
        except BaseException:
            getattr(testee, "kill", testee.close)()
            raise


def testee_parse(make: Callable[[], Any], what: str) -> tuple[Parse, Any]:
    """(Parse, Hello) over the testees `make` starts."""
    from harness.plugins.protocol import STREAM
    testees = PerProcess(make)
    hello = testees.get().hello()
    if hello is None:
        failure = testees.get().start_failure()
        raise ParserUnavailable(f"parser {what} did not start: {failure.detail if failure else 'no hello'}")
    if hello.unavailable:
        raise ParserUnavailable(f"parser {what} is unavailable here: {hello.unavailable}")
    if hello.transport == STREAM:
        return serving_parse(lambda source: outcome_of(testees.reply(SERVED_NAME, source), what),
                             hello.capabilities), hello
    return through_file(lambda path: outcome_of(testees.reply(path), what)), hello


def _limits(timeout: float | None) -> Any:
    from harness.isolation import Limits
    return Limits(timeout or BACKSTOP_TIMEOUT, MEMORY_MB)


def command_parse(command: str, timeout: float | None = None) -> tuple[Parse, Any]:
    """`--parser-stream CMD`: the command is run once per input with the StreamSource as flags."""
    from harness.plugins import launch
    return testee_parse(lambda: launch.stream_command(command, _limits(timeout)), f"stream command {command!r}")


def runtime_parse(name: str, timeout: float | None = None) -> tuple[Parse, Any]:
    """A runtime parser of the registry, its adapter started once per process; `timeout`: seconds
    per input before its silence is a hang (TesteeHang)."""
    from harness.parsers.registry import BY_NAME
    from harness.plugins import launch
    entry = BY_NAME[name]
    return testee_parse(lambda: launch.runtime_parser(entry, _limits(timeout)), name)


def isolated_parse(name: str, timeout: float | None = None) -> tuple[Parse, Any]:
    """Any registered parser in a process of its own, an in-process Python plugin through the
    worker as conformance runs it: its crash or hang is the testee's, never the caller's."""
    from harness.plugins import launch
    return testee_parse(lambda: launch.named(name, _limits(timeout)), name)


def is_runtime_parser(spec: str | None) -> bool:
    from harness.parsers.registry import BY_NAME
    entry = BY_NAME.get(spec or "")
    return entry is not None and not entry.in_process


def transport_of(spec: str | None) -> str:
    """How the parser a fuzz --parser names gets each input: "stream" or "file" (the registry's
    entry, or a plugin class's `transport`, read without starting the parser)."""
    from harness.parsers.registry import BY_NAME
    if not spec or spec == "oracle":
        return "file"
    if spec.startswith(COMMAND_PREFIX):
        return "stream"
    if spec in BY_NAME:
        return BY_NAME[spec].transport
    from harness.plugins.registry import PluginNotFound, _resolve, known
    try:
        return getattr(_resolve(known().get(spec) or spec), "transport", "file")
    except (PluginNotFound, ImportError, AttributeError, ValueError):
        return "file"


def parse_of(spec: str, timeout: float | None = None) -> tuple[Parse, Any] | None:
    """(Parse, Hello) when `spec` names a parser in a process of its own, else None."""
    if spec.startswith(COMMAND_PREFIX):
        return command_parse(spec[len(COMMAND_PREFIX):], timeout)
    if is_runtime_parser(spec):
        return runtime_parse(spec, timeout)
    return None
