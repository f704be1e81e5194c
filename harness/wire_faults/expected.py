"""Pinned wire-fault verdicts: one file per client, harness/expected/wire-faults/<client>.txt, one
`<fault> <verdict>[|<verdict>] cause=<finding id>` per line, `#` comments, as the expected failures
of conformance pin a case's outcome (harness/expected_failures.py).

A verdict needs an entry when it is not what the fault asks of a client (catalogue.Fault.expectation):
anything but `same` under a legal fault; under an error fault anything but `same` or `clean-failure`
(an `unnoticed` broken byte is a finding too, so it is pinned); and a run in which the fault was
never injected (the client stopped before it), pinned as `not-injected` whatever the client did:
the fault was not tested. A verdict that varies between runs is pinned with each alternative
(`clean-failure|lost-or-duplicated`). The cause is a finding of the client's manifest
(harness/manifests.py), as for every expected failure.

The gate fails on a surprise: a verdict not pinned, a pinned verdict that changed, and a pin of
a client that now does what the fault asks (stale: the pin must go). Pins of faults the run left
out are neither used nor stale."""
from __future__ import annotations

import re
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..expected_failures import ALTERNATIVE  # `clean-failure|lost-or-duplicated`: a verdict that varies
from .catalogue import BY_NAME
from .verdict import Verdict, ideal

NOT_INJECTED = "not-injected"  # the client stopped before the fault: pinned as this, whatever it did
_LINE = re.compile(r"^(?P<fault>\S+)\s+(?P<verdict>\S+)(?:\s+(?P<note>.*?))??(?:\s+cause=(?P<cause>\S+))?\s*$")


class PinFileError(ValueError):
    pass


@dataclass(frozen=True)
class Pin:
    fault: str
    verdicts: tuple[str, ...]
    cause: str = ""
    note: str = ""  # the first words of the detail it was pinned from (for the reader; not matched)
    line: int = 0

    def render(self) -> str:
        return " ".join(filter(None, (self.fault, ALTERNATIVE.join(self.verdicts), self.note,
                                      f"cause={self.cause}" if self.cause else "")))


@dataclass(frozen=True)
class Verdicted:
    """One client's verdict under one fault, as the pins see it."""
    fault: str
    verdict: str
    detail: str
    needs_pin: bool

    @classmethod
    def of(cls, fault: str, verdict: str, detail: str, injected: bool = True) -> "Verdicted":
        if not injected:  # whatever the client did, the fault was not tested
            return cls(fault, NOT_INJECTED, detail, True)
        return cls(fault, verdict, detail, Verdict(verdict) not in ideal(BY_NAME[fault]))


def parse(text: str, source: str = "<wire-fault pins>") -> list[Pin]:
    pins, valid = [], {str(v) for v in Verdict} | {NOT_INJECTED}
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        m = _LINE.match(raw.strip())
        verdicts = tuple(m["verdict"].split(ALTERNATIVE)) if m else ()
        if m is None or m["fault"] not in BY_NAME or not set(verdicts) <= valid:
            raise PinFileError(f"{source}:{n}: expected `<fault> <verdict>[|<verdict>] [note] cause=<id>` with a "
                               f"fault of the catalogue and verdicts among {sorted(valid)}")
        pins.append(Pin(m["fault"], verdicts, m["cause"] or "", (m["note"] or "").strip(), n))
    return pins


def load(path: Path) -> list[Pin]:
    return parse(path.read_text(encoding="utf-8"), str(path)) if path.is_file() else []


def pin_path(directory: Path, client: str) -> Path:
    return directory / f"{client}.txt"


@dataclass
class PinGate:
    client: str
    unexpected: list[str] = field(default_factory=list)
    expected: int = 0
    stale: list[Pin] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.unexpected and not self.stale


def gate(client: str, results: Iterable[Verdicted], pins: Sequence[Pin]) -> PinGate:
    """One client's verdicts against its pins. Every fault the run included is judged; pins of
    faults the run left out (`--fault`) are neither used nor stale."""
    by_fault = {p.fault: p for p in pins}
    g = PinGate(client)
    for fault, verdict, detail, needs in (astuple(r) for r in results):
        pin = by_fault.pop(fault, None)
        if pin is not None and verdict in pin.verdicts:  # an ideal verdict only as a named alternative
            g.expected += 1
        elif pin is not None and not needs:
            g.stale.append(pin)  # the client now does what the fault asks: the pin must go
        elif pin is not None:
            g.unexpected.append(f"{fault}: pinned as {ALTERNATIVE.join(pin.verdicts)}, got {verdict}: {detail}")
        elif needs:
            g.unexpected.append(f"{fault}: {verdict} is not pinned: {detail}")
    return g


def fix(path: Path, results: Iterable[Verdicted], header: str) -> int:
    """Rewrite the client's pins so this run would pass, keeping the cause (and a hand-written
    alternative that still holds) of each fault it pins again; pins of faults not run stay."""
    old = {p.fault: p for p in load(path)}
    comments = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("#")] \
        if path.is_file() else [f"# {ln}" for ln in header.splitlines()]
    ran, pins = set(), []
    for fault, verdict, detail, needs in (astuple(r) for r in results):
        ran.add(fault)
        if not needs:
            continue
        was = old.get(fault)
        if was is not None and verdict in was.verdicts:
            pins.append(was)
        else:
            pins.append(Pin(fault, (verdict,), was.cause if was else "", _note(detail)))
    pins += [p for f, p in old.items() if f not in ran]
    order = list(BY_NAME)
    pins.sort(key=lambda p: order.index(p.fault))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*comments, *(p.render() for p in pins)]) + "\n", encoding="utf-8")
    return len(pins)


def _note(detail: str, words: int = 8) -> str:
    """A few words of the detail, without anything that reads as a cause."""
    return " ".join(detail.replace("cause=", "cause:").split()[:words]).strip(";,")
