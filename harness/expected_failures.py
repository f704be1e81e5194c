"""Expected failures of one parser: a plain text file, one `<case id> <outcome> [diffs=<digest>]
<message prefix> cause=<finding id>` per line (tab-separated if the id has spaces), `#` comments.

The cause names the finding the failure belongs to, a defect or documented limit of the parser
(or the harness's reason for not running the case), defined in the parser's manifest
(harness/manifests.py; tests/test_manifests.py fails on an entry without a cause or a cause
without a finding). `--fix` keeps the cause of a case it rewrites; a new entry has none until a
person gives it one.

A stream testee's result in a mode other than position is named `<case id>@<mode>` (CaseResult.key): an entry
without `@` is a position-mode entry (or a file testee's), as every entry was before modes.
A `not_applicable` result (a mode the testee does not support, with its cause) needs no entry.

The message says the first difference and how many there are; the digest pins the whole set: a
SHA-256 (first 16 hex digits) of the case's difference lines, sorted (CaseResult.diff_digest), so a
change behind the first difference is seen too. The lines themselves are in the --json and --html
reports (the first 20) and in the results stream.

The run fails on any surprise: a failure not listed, a listed failure that now passes (so the
list cannot rot into hiding fixed bugs), a listed case with another outcome or message, and an
entry naming a case that was not run at all (stale). `--fix` rewrites the file from a run."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .outcomes import MODE_SEPARATOR, CaseResult, Outcome

PREFIX_LEN = 120
WILDCARD = "*"  # `* unavailable` : accept that the tool is missing on this machine
ALTERNATIVE = "|"  # `<case> crash|timeout cause=...`: either outcome, any message (Entry.outcomes)
_DIGEST = re.compile(r"diffs=(\w+:[0-9a-f]+)(?:\s+|$)")
_CAUSE = re.compile(r"(?:^|\s+)cause=(\S+)$")


@dataclass(frozen=True)
class Entry:
    case: str
    outcome: str
    prefix: str
    line: int = 0
    digest: str = ""  # of all the case's differences; "" pins only the message prefix
    cause: str = ""  # the finding id (harness/manifests.py); "" only for an entry --fix just wrote

    @property
    def outcomes(self) -> tuple[str, ...]:
        """`crash|timeout`: a parser that exhausts a resource (a hang, a runaway allocation) is
        killed by its memory limit or by the harness's timer, whichever comes first on that machine."""
        return tuple(self.outcome.split(ALTERNATIVE))

    @property
    def allows_pass(self) -> bool:
        """`mismatch|pass`: a case whose outcome varies from run to run (a stream client that
        delivers a corrupt stream's events differently each time), named as such with its cause,
        as web-platform-tests' expectation files name a flaky test by its outcomes."""
        return Outcome.PASS.value in self.outcomes

    def matches(self, r: CaseResult) -> bool:
        return (r.outcome.value in self.outcomes and r.message.startswith(self.prefix)
                and (not self.digest or self.digest == r.diff_digest))

    def render(self) -> str:
        sep = "\t" if " " in self.case else " "
        return sep.join(filter(None, (self.case, self.outcome, f"diffs={self.digest}" if self.digest else "",
                                      self.prefix, f"cause={self.cause}" if self.cause else "")))

    def describe(self) -> str:
        return f"{self.outcome}: {self.prefix!r}" + (f" with differences {self.digest}" if self.digest else "")


class ExpectedFileError(ValueError):
    pass


def parse(text: str, source: str = "<expected failures>") -> list[Entry]:
    entries = []
    valid = {o.value for o in Outcome} - {Outcome.NOT_APPLICABLE.value}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t", 2) if "\t" in line else line.split(None, 2)
        if len(parts) < 2 or not set(parts[1].split(ALTERNATIVE)) <= valid or parts[1] == Outcome.PASS.value:
            raise ExpectedFileError(f"{source}:{n}: expected `<case> <outcome> [message prefix]` "
                                    f"with outcome one of {sorted(valid - {Outcome.PASS.value})} "
                                    f"(`|pass` only beside another: a flaky case)")
        rest = parts[2] if len(parts) > 2 else ""
        digest = _DIGEST.match(rest)
        if digest:
            rest = rest[digest.end():]
        cause = _CAUSE.search(rest)
        if cause:
            rest = rest[:cause.start()]
        entries.append(Entry(parts[0], parts[1], rest, n, digest[1] if digest else "", cause[1] if cause else ""))
    return entries


def load(path: Path | None) -> list[Entry]:
    if path is None or not path.exists():
        return []
    return parse(path.read_text(encoding="utf-8"), str(path))


@dataclass
class Gate:
    unexpected: list[tuple[CaseResult, str]] = field(default_factory=list)
    expected: list[tuple[CaseResult, Entry]] = field(default_factory=list)
    stale: list[Entry] = field(default_factory=list)
    # results a documented refusal covers (Outcome.NOT_APPLICABLE): never a pass or a failure;
    # `passed` those of them the parser passed all the same (reported, not a gate failure: a
    # version its documentation does not support may still read, and a lifted limit shows here)
    not_applicable: list[CaseResult] = field(default_factory=list)

    @property
    def passed_not_applicable(self) -> list[CaseResult]:
        return [r for r in self.not_applicable if r.run_outcome == Outcome.PASS.value]

    @property
    def ok(self) -> bool:
        return not self.unexpected and not self.stale

    def is_expected(self, r: CaseResult) -> bool:
        return any(er is r for er, _ in self.expected)


def gate(results: Iterable[CaseResult], entries: list[Entry]) -> Gate:
    by_case = {e.case: e for e in entries if e.case != WILDCARD}
    wildcards = [e for e in entries if e.case == WILDCARD]
    used: set[int] = set()
    g = Gate()
    seen_cases = set()
    for r in results:
        seen_cases.add(r.key)
        entry = by_case.get(r.key)
        wild = next((w for w in wildcards if w.matches(r)), None)
        if r.outcome is Outcome.NOT_APPLICABLE:
            _gate_not_applicable(g, r, entry)
        elif r.outcome is Outcome.PASS:
            if entry is not None and entry.allows_pass:
                g.expected.append((r, entry))
            elif entry is not None:
                g.unexpected.append((r, f"unexpected pass (listed as {entry.outcome}: {entry.prefix})"))
        elif entry is not None and entry.matches(r):
            g.expected.append((r, entry))
        elif wild is not None:
            g.expected.append((r, wild))
            used.add(id(wild))
        elif entry is not None:
            now = f" with differences {r.diff_digest}" if entry.digest and r.diff_digest != entry.digest else ""
            g.unexpected.append((r, f"listed as {entry.describe()}, got {r.outcome}: {r.message}{now}"))
        else:
            g.unexpected.append((r, f"unexpected {r.outcome}: {r.message}"))
    g.stale = [e for e in by_case.values() if e.case not in seen_cases]
    g.stale += [w for w in wildcards if id(w) not in used]
    return g


def _gate_not_applicable(g: Gate, r: CaseResult, entry: Entry | None) -> None:
    """Not applicable needs no entry (the manifest declares it); an entry for such a case is a
    surprise: the file is out of date (--fix drops it)."""
    if entry is not None:
        g.unexpected.append((r, f"listed as {entry.describe()}, but the case is not applicable (cause {r.cause}): "
                                f"remove the entry"))
    else:
        g.not_applicable.append(r)


def entry_mode(e: Entry) -> str:
    """The stream mode an entry is for: what follows `@` in its key, else position."""
    return e.case.rsplit(MODE_SEPARATOR, 1)[1] if MODE_SEPARATOR in e.case else "position"


def _entry_for(r: CaseResult) -> Entry:
    first_line = r.message.splitlines()[0] if r.message else ""
    return Entry(r.key, r.outcome.value, first_line[:PREFIX_LEN].rstrip(), digest=r.diff_digest)


def _kept_prefix(entry: Entry, old: Entry | None, r: CaseResult) -> Entry:
    """A listed prefix that still matches stays (one shortened by hand to match either of two
    messages a parser gives at random), with the differences of this run; the case's cause stays."""
    if old is not None and ALTERNATIVE in old.outcome and old.matches(r):
        return old  # either outcome of a resource exhaustion, written by hand: it stays as it is
    if old is not None and old.outcome == entry.outcome and r.message.startswith(old.prefix):
        return Entry(entry.case, entry.outcome, old.prefix, digest=entry.digest, cause=old.cause)
    return Entry(entry.case, entry.outcome, entry.prefix, digest=entry.digest, cause=old.cause if old else "")


def fix(path: Path, results: list[CaseResult], header: str | None = None) -> int:
    """Rewrite path so this run would pass: one entry per failure. Cases whose tool was
    unavailable keep their old entries (nothing is known about them). Returns entries written."""
    old = load(path)
    comments = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            comments.append(line)
    if not comments and header:
        comments = [f"# {ln}" if ln else "#" for ln in header.splitlines()]
    unavailable = {r.key for r in results if r.outcome is Outcome.UNAVAILABLE}
    # a run narrowed by --modes says nothing of the other modes: their entries stay
    ran_modes = {r.mode or "position" for r in results}
    keep = [e for e in old if e.case in unavailable or e.case == WILDCARD or entry_mode(e) not in ran_modes]
    by_case = {e.case: e for e in old}
    new = [_kept_prefix(_entry_for(r), by_case.get(r.key), r) for r in results
           if r.outcome not in (Outcome.PASS, Outcome.UNAVAILABLE, Outcome.NOT_APPLICABLE)]
    entries = sorted(keep + new, key=lambda e: (e.case, e.outcome))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*comments, *(e.render() for e in entries)]) + "\n", encoding="utf-8")
    return len(entries)
