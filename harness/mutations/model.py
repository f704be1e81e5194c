"""What a mutation operator is and what it promises.

An operator is a small function that edits a copy of a parsed seed binlog in place, using only
the seeded RNG it is given, and returns a Change: a one-line description and the outcome a correct
parser must show. `apply` wraps it: copy, edit, reassemble with repairs (binlog.py), and the
Mutation an engine checks. Operators are registered by name in CATALOGUE, so engines enumerate,
sample and replay them by name.

A promise about the mutated event holds only for the kind of event the operator reasons about
(no reader checks a log_pos, except a Heartbeat's decoder). An operator states that as a
precondition on the target event; it is checked on the bytes a parser is actually given (the
operator's output, and again by an engine whose input has more changes on top: its events may
have been retyped by earlier byte mutations). Where it does not hold the input is still run, for
crashes and hangs, but the expectation is ANY_CLEAN.
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Callable

from .binlog import Binlog, Ev


class Expect(enum.Enum):
    MUST_REJECT = "MUST_REJECT"  # a clean, typed error; every event before the damage unchanged
    MUST_ACCEPT_WITH_CHANGE = "MUST_ACCEPT_WITH_CHANGE"  # same outcome but for the declared fields
    ANY_CLEAN = "ANY_CLEAN"  # implementation-defined; never a crash, hang or memory blow-up


class NotApplicable(Exception):
    """The seed has nothing this operator can work on (no Query event, no checksums, ...)."""


@dataclass(frozen=True)
class Mutation:
    operator: str
    description: str
    data: bytes
    expect: Expect
    # Index (in the seed's event list) of the first event the mutation touches; events before it
    # must decode exactly as in the seed, whatever the expectation.
    event_index: int | None = None
    # MUST_ACCEPT_WITH_CHANGE: the canonical top-level fields of event_index allowed to differ
    # (at least one must); every other event and field must be identical to the seed's.
    changed: frozenset[str] = frozenset()
    # MUST_ACCEPT_WITH_CHANGE: how many events the mutated file has (None: as many as the seed).
    event_count: int | None = None
    # The operator's precondition when it did not hold on `data` (expect is then ANY_CLEAN).
    unmet: str | None = None

    def note(self) -> dict:
        """The JSON-able description saved next to a reproducer."""
        note = {"operator": self.operator, "description": self.description,
                "expect": self.expect.value, "event_index": self.event_index,
                "changed": sorted(self.changed), "event_count": self.event_count}
        if self.unmet:
            note["precondition_unmet"] = self.unmet
        return note


@dataclass(frozen=True)
class Change:
    """What an operator reports back about the edit it made (see Mutation for the fields)."""

    description: str
    expect: Expect
    event_index: int | None = None
    changed: frozenset[str] = frozenset()
    event_count: int | None = None
    # Applied to the assembled bytes, for damage no event model can hold (a cut mid-event).
    post: Callable[[bytes], bytes] | None = None


Operator = Callable[[Binlog, random.Random], Change]
# What the operator's promise needs of the mutated event, as the bytes a parser gets frame it.
Precondition = Callable[[Ev], bool]


@dataclass(frozen=True)
class OperatorInfo:
    name: str
    area: str  # header, query, checksum, framing, body
    fn: Operator = field(repr=False)
    requires: Precondition | None = field(default=None, repr=False)

    def apply(self, seed: Binlog, rng: random.Random) -> Mutation:
        """Mutate a copy of seed. Raises NotApplicable when the seed offers nothing to mutate."""
        b = seed.copy()
        c = self.fn(b, rng)
        data = b.assemble()
        if c.post is not None:
            data = c.post(data)
        if data == seed.meta.get("data"):
            raise NotApplicable(f"{self.name} changed nothing ({c.description})")
        unmet = None if c.expect is Expect.ANY_CLEAN else self.unmet(data, c.event_index, seed)
        return Mutation(self.name, c.description, data, c.expect if unmet is None else Expect.ANY_CLEAN,
                        c.event_index, frozenset(c.changed), c.event_count, unmet)

    def unmet(self, data: bytes, event_index: int | None, seed: Binlog | None = None) -> str | None:
        """The name of the precondition when it does not hold on data (the event at event_index,
        where the oracle's framing walk finds it in data, is not one `requires` accepts), else None.
        seed: the parsed Binlog data was made from (the walk then skips the prefix they share)."""
        if self.requires is None:
            return None
        if event_index is None or event_index < 0:
            return self.requires.__name__
        event = Binlog.event_at(data, event_index, seed)
        if event is not None and self.requires(event):
            return None
        return self.requires.__name__


def expectation_on(m: Mutation, data: bytes) -> Expect:
    """m's expectation for data, the input a parser was actually given: m.expect when data is
    m's own output or the operator's precondition still holds on it, else ANY_CLEAN."""
    info = CATALOGUE.get(m.operator)
    if m.expect is Expect.ANY_CLEAN or data == m.data or info is None:
        return m.expect
    return m.expect if info.unmet(data, m.event_index) is None else Expect.ANY_CLEAN


def pick(b: Binlog, rng: random.Random, accept: Callable[[int], bool] | None = None,
         what: str = "event") -> int:
    """A random index of an event that accept() likes (any event when None); NotApplicable when
    there is none. rng.choice draws the same for a range as for the list of its indices."""
    found = range(len(b.events)) if accept is None else [i for i in range(len(b.events)) if accept(i)]
    if not found:
        raise NotApplicable(f"no {what} to mutate")
    return rng.choice(found)


CATALOGUE: dict[str, OperatorInfo] = {}


def operator(name: str, area: str, requires: Precondition | None = None) -> Callable[[Operator], Operator]:
    """Register fn under name, with the precondition its promise needs of the mutated event.
    Names are stable: reproducer notes refer to them."""
    def register(fn: Operator) -> Operator:
        if name in CATALOGUE:
            raise ValueError(f"operator {name} registered twice")
        CATALOGUE[name] = OperatorInfo(name, area, fn, requires)
        return fn
    return register
