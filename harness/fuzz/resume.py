"""The oracle's decode of a seed, kept so each mutant of it is decoded only where it differs.

A mutant shares its seed's bytes up to the first one an operator changed, and usually from the
last one changed to the end. The oracle's state before an event depends only on the bytes before
it (oracle.decoder.Checkpoint), so the events before the last checkpoint inside the shared prefix
are the seed's, and the decode resumes there. It stops at the first event boundary inside the
shared suffix where the state is the seed's again (same offset, same format and Table_maps):
everything after it, the error included, is the seed's. The outcome is the one a decode from
the start gives, for a fraction of the work (issue 14); tests/test_fuzz_resume.py checks that
over every seed and thousands of mutants.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from oracle.decoder import Checkpoint

from .outcome import Outcome, oracle_decode


@dataclass
class SeedDecode:
    data: bytes
    outcome: Outcome
    checkpoints: list[Checkpoint] = field(default_factory=list)  # ordered by offset

    @classmethod
    def of(cls, data: bytes) -> "SeedDecode":
        """Decode data from the start, keeping the checkpoints. Exceptions other than a
        BinlogError (a crash) escape, as from oracle_parse."""
        checkpoints: list[Checkpoint] = []
        return cls(data, oracle_decode(data, checkpoints=checkpoints), checkpoints)

    def _first_index(self, shared: Callable[[int], bool], last_shared: bool) -> int:
        """Binary search over the checkpoints for a monotone predicate on their offsets."""
        lo, hi = 0, len(self.checkpoints)
        while lo < hi:
            mid = (lo + hi) // 2
            if shared(self.checkpoints[mid].offset) == last_shared:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def resume_point(self, mutant: bytes) -> Checkpoint | None:
        """The last checkpoint whose whole prefix mutant shares (None: not even the first)."""
        seed = self.data
        n = self._first_index(lambda off: mutant[:off] == seed[:off], True)
        return self.checkpoints[n - 1] if n else None

    def rejoin_points(self, mutant: bytes) -> dict[int, Checkpoint]:
        """Checkpoints (by offset) from which mutant has the seed's bytes to the end."""
        seed = self.data
        if len(mutant) != len(seed):
            return {}
        n = self._first_index(lambda off: mutant[off:] != seed[off:], True)
        return {cp.offset: cp for cp in self.checkpoints[n:]}

    def parse(self, mutant: bytes) -> Outcome:
        """What oracle_parse(mutant) gives, decoding only where mutant differs from the seed."""
        start = self.resume_point(mutant)
        rejoin = self.rejoin_points(mutant)
        met: list[Checkpoint] = []

        def back_in_step(here: Checkpoint) -> bool:
            theirs = rejoin.get(here.offset)
            if theirs is not None and here.same_state(theirs):
                met.append(theirs)
                return True
            return False
        head = self.outcome.events[:start.events] if start else ()
        got = oracle_decode(mutant, head, resume=start, stop=back_in_step if rejoin else None)
        if met:
            got.events += self.outcome.events[met[0].events:]
            seed = self.outcome
            got.error_kind, got.error_offset, got.error_message = seed.error_kind, seed.error_offset, seed.error_message
        return got
