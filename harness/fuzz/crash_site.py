"""Where a crash happened, as a short site that makes two crashes the same bug: `Type@file:line`.

A Python exception gives its own traceback. A runtime parser (jvm, go, rust, node) dies in a
process of its own, and what it left on stderr says where: a Java stack trace, a Go panic, a Rust
panic, a Node error. Without this, every crash of such a parser was one signature (the harness's
own `TesteeCrash` line), so distinct bugs shared three reproducers and the rest were lost."""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class StderrShape:
    """One runtime's crash report: the line naming the failure and the first frame under it
    that is not the runtime's own (`skip`)."""

    headline: re.Pattern[str]  # group "what": the exception or panic kind
    frame: re.Pattern[str]     # groups "file" and "line", or "func" where no line is printed
    skip: re.Pattern[str] | None = None


SHAPES = (
    # Java: `java.lang.ArrayIndexOutOfBoundsException: ...` then `\tat pkg.Class.method(File.java:42)`
    StderrShape(re.compile(r"^(?:Exception in thread \"[^\"]*\" )?(?:[\w$]+\.)+(?P<what>[\w$]*(?:Exception|Error|Throwable))\b"),
                re.compile(r"^\s+at [\w$.<>/]+\((?P<file>[\w$-]+\.java):(?P<line>\d+)\)")),
    # Go: `panic: runtime error: ...` or `fatal error: out of memory`, frames as
    # `\t/path/file.go:42 +0x1d`, the runtime's own skipped
    StderrShape(re.compile(r"^(?:panic|fatal error): (?:runtime error: )?(?P<what>[a-z][a-z ]*[a-z])"),
                re.compile(r"^\s+(?P<file>\S+\.go):(?P<line>\d+)"),
                re.compile(r"/(?:runtime|panic)[/.]|^\s+runtime/|/panics\.go:")),  # panics.go: the adapters' recover
    # Rust: the adapters' `panic at path/file.rs:42: ...`, or std's `thread 'main' panicked at file.rs:42:5:`
    StderrShape(re.compile(r"(?P<what>panic)(?:ked)? at (?P<file>[^\s:]+\.rs):(?P<line>\d+)"),
                re.compile(r"(?P<file>[^\s:]+\.rs):(?P<line>\d+)")),
    # Node: `TypeError: ...` then `    at fn (/path/file.js:42:7)`
    StderrShape(re.compile(r"^(?:Uncaught )?(?P<what>[A-Z]\w*Error)\b"),
                re.compile(r"^\s+at (?:.*\()?(?P<file>[^\s():]+\.[cm]?js):(?P<line>\d+):\d+\)?$")),
    # Rust's allocation failure (an abort, no panic): the first frame of the backtrace outside std
    StderrShape(re.compile(r"^(?P<what>memory allocation) of \d+ bytes failed"),
                re.compile(r"^\s+\d+: (?P<func>\S+)"), re.compile(r"^\s+\d+: <?(?:std|core|alloc|__rustc)::")),
)


def python_site(exc: BaseException) -> str:
    """`Type@file:line` of the innermost frame of a Python exception."""
    tb = traceback.extract_tb(exc.__traceback__)
    return f"{type(exc).__name__}@{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else type(exc).__name__


def site_of(exc: BaseException) -> str:
    """The crash site of an exception a parse let escape: a testee's own (TesteeCrash.site,
    read from its stderr) when it has one, else the Python traceback's."""
    return getattr(exc, "site", None) or python_site(exc)


_PY_FRAME = re.compile(r'^\s+File "(?P<file>[^"]+\.py)", line (?P<line>\d+)')
_PY_RAISED = re.compile(r"^(?:[\w.]+\.)?(?P<what>[A-Z]\w*(?:Error|Exception|Exit))\b")


def _python_traceback_site(lines: list[str]) -> str | None:
    """`Type@file:line` of the last Python traceback (the worker's crashed plugin): its innermost
    frame, printed above the exception line, where the other runtimes print theirs below."""
    starts = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last):")]
    if not starts:
        return None
    frame = None
    for ln in lines[starts[-1] + 1:]:
        if m := _PY_FRAME.match(ln):
            frame = m
        elif frame is not None and (raised := _PY_RAISED.match(ln)):
            return f"{raised.group('what')}@{_place(frame)}"
    return None


def stderr_site(log: str) -> str | None:
    """`What@file:line` from the last crash report on a testee's stderr (None: no known shape).
    The last report, because a restarted testee's stderr file holds only its own run."""
    lines = log.splitlines()
    if site := _python_traceback_site(lines):
        return site
    for shape in SHAPES:
        starts = [i for i, ln in enumerate(lines) if shape.headline.search(ln)]
        if not starts:
            continue
        head = shape.headline.search(lines[starts[-1]])
        assert head is not None
        where = head if head.groupdict().get("file") else _first_frame(shape, lines[starts[-1] + 1:])
        what = head.group("what").replace(" ", "-")
        return f"{what}@{_place(where)}" if where is not None else what
    return None


def _place(m: re.Match[str]) -> str:
    named = m.groupdict()
    return named["func"] if named.get("func") else f"{Path(named['file']).name}:{named['line']}"


def _first_frame(shape: StderrShape, lines: list[str]) -> re.Match[str] | None:
    for ln in lines:
        m = shape.frame.search(ln)
        if m and not (shape.skip and shape.skip.search(ln)):
            return m
    return None


def crash_note(exc: BaseException) -> dict[str, str]:
    """What a crash finding's note keeps: the Python traceback, and a testee's stderr (its own
    stack trace or panic, the evidence for the library's report)."""
    log = getattr(exc, "log", "")
    return {"traceback": "".join(traceback.format_exception(exc, limit=-8)), **({"testee_stderr": log} if log else {})}
