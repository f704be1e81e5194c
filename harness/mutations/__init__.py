"""Named, deterministic mutation operators on real binlogs (issue 7).

`CATALOGUE[name].apply(Binlog.parse(seed_bytes), random.Random(seed))` gives a Mutation: the bytes,
a one-line description, and the outcome a correct parser must show (Expect). Importing this package
registers every operator module.
"""
# Registration order is catalogue order: header, query, checksum, framing, body.
from . import header, query, checksum, framing, body  # noqa: F401,I001  (registration side effect)
from .binlog import Binlog
from .model import CATALOGUE, Expect, Mutation, NotApplicable, OperatorInfo, expectation_on

__all__ = ["CATALOGUE", "Binlog", "Expect", "Mutation", "NotApplicable", "OperatorInfo", "expectation_on",
           "mutate"]


def mutate(name: str, seed: bytes | Binlog, rng_seed: int | str) -> Mutation:
    """Replay one mutation: the same (name, seed, rng_seed) always gives the same bytes."""
    import random
    binlog = seed if isinstance(seed, Binlog) else Binlog.parse(seed)
    return CATALOGUE[name].apply(binlog, random.Random(rng_seed))
