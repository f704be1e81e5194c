"""The outcome of one case under one parser, as recorded in results files and reports."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Outcome(str, Enum):
    PASS = "pass"
    MISMATCH = "mismatch"        # decoded, but fields differ from the expectation
    REJECTED = "rejected"        # clean error on a file that should decode
    CRASH = "crash"              # died, broke the contract, or raised an unexpected exception
    TIMEOUT = "timeout"          # no answer within the time limit
    SKIPPED = "skipped"          # declined the input (declared unsupported), with a reason
    UNAVAILABLE = "unavailable"  # the tool is not installed here: never counts as a pass
    # A documented refusal of the parser covers the case (its manifest, harness/manifests.py):
    # run anyway, never a pass or a failure, outside every denominator
    NOT_APPLICABLE = "not_applicable"

    def __str__(self) -> str:
        return self.value


@dataclass
class CaseResult:
    case: str
    parser: str
    outcome: Outcome
    message: str = ""
    diffs: list[dict[str, Any]] = field(default_factory=list)  # the first few, for reports
    n_diffs: int = 0
    server_version: str = "unknown"
    event_types: list[str] = field(default_factory=list)
    failed_types: list[str] = field(default_factory=list)  # event types with a diff (or all, on failure)
    duration: float = 0.0
    log: str = ""
    transport: str = "file"  # how the parser got the binlog: "file" (a path) or "stream" (a primary)
    diff_digest: str = ""  # of every difference, sorted (harness/classify.py): expected failures pin it
    # What the case exercises besides its event types (harness/features.py): area -> values
    features: dict[str, list[str]] = field(default_factory=dict)
    # NOT_APPLICABLE only: the refusal's finding id, and what the parser did with the case
    # (an outcome value; "pass" means it accepted a case its manifest says it refuses)
    cause: str = ""
    run_outcome: str = ""
    # Every check made and not made (harness/checks.py): passed / failed / not_compared, overall
    # and by_event_type, by_column_type, by_field, by_area (docs/plugin-contract.md)
    checks: dict[str, Any] = field(default_factory=dict)
    # a stream testee's mode (harness/plugins/protocol.py MODES); None for a file testee
    mode: str | None = None

    @property
    def key(self) -> str:
        """The case id, and the mode past position (`<case id>@gtid`): what expected-failure
        entries and resumed runs name, so today's entries stay position-mode entries."""
        return mode_key(self.case, self.mode)

    def to_json(self) -> dict[str, Any]:
        """The fields as they are (no deep copy as dataclasses.asdict makes: a result's checks
        are hundreds of small dicts, and the JSON encoder only reads them)."""
        d = {name: getattr(self, name) for name in self.__dataclass_fields__}
        d["outcome"] = self.outcome.value
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "CaseResult":
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        known["outcome"] = Outcome(d["outcome"])
        return cls(**known)


MODE_SEPARATOR = "@"


def mode_key(case: str, mode: str | None) -> str:
    return case if mode in (None, "position") else f"{case}{MODE_SEPARATOR}{mode}"
