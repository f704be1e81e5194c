"""The real binlogs in ../shared/external-binlogs, described by their MANIFEST.tsv."""
from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(os.environ.get("EXTERNAL_BINLOGS",
                           Path(__file__).resolve().parents[1].parent / "shared" / "external-binlogs"))


@dataclass(frozen=True)
class ExternalBinlog:
    file: str
    server_version: str
    checksum_alg: str
    mysqlbinlog_result: str

    @property
    def path(self) -> Path:
        return ROOT / self.file

    @property
    def name(self) -> str:
        return self.file.split("/", 1)[1]

    @property
    def flavor(self) -> str:
        return "mariadb" if "mariadb" in self.server_version.lower() else "mysql"


def manifest() -> list[ExternalBinlog]:
    path = ROOT / "MANIFEST.tsv"
    if not path.exists():
        return []
    with open(path, newline="") as f:
        rows = csv.DictReader(f, delimiter="\t")
        return [ExternalBinlog(r["file"], r["server_version"], r["checksum_alg"], r["mysqlbinlog_9_7_4"])
                for r in rows]


# Broken on purpose (see the external README): the file name ending, the error kinds that are a
# clean rejection, and the offset of the event at which decoding must stop.
BROKEN = {
    "binlog_truncated_event.000001": (("TruncatedEvent",), 4),
    "binlog_truncated_prev_gtid_event.000001": (("TruncatedEvent",), 120),
    "corrupt-relay-bin.000624": (("BadEventBody", "UnknownStatusVar", "LengthPastEnd", "TruncatedEvent"), 91204),
    "bug40482-bin.000001": (("BadEventBody",), 106),
}
# Files from a 5.2 development tree that the real tools refuse: decode or reject cleanly.
EITHER = ("ver_5_1-wl2325_r.001", "ver_5_1-wl2325_s.001")


def broken_expectation(b: ExternalBinlog):
    for suffix, expectation in BROKEN.items():
        if b.file.endswith(suffix):
            return expectation
    return None
