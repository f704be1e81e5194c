"""Fuzzing engines (issue 7): `mutate`, a deterministic walk of the mutation catalogue over seed
binlogs that checks each operator's declared expectation, and `atheris`, a coverage-guided session
with a structure-aware mutator built from the same operators. Both take a parser as a callable
`parse(data: bytes) -> Outcome` (outcome.py); `oracle_parse` is the reference decoder's."""
