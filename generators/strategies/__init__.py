"""Hypothesis strategies that build valid binlogs from scratch for version profiles (MySQL 5.6,
5.7, 8.0, 9.x; MariaDB 10.5, 10.11, 11.x): Format_description with the profile's real post-header
lengths, the GTID events of the line (9.x tagged ones; MariaDB's Gtid, Gtid_list,
Binlog_checkpoint), Query events with status variables, Table_map + rows events with rows of
every column type, XA on MariaDB, written through oracle.encode.

    from generators.strategies import built_binlogs
    @given(built_binlogs("8.0"))
    def test_x(b): ...  # b.data: the file's bytes; b.events: the canonical events built
"""
from .binlog import GeneratedBinlog, built_binlogs, differences, encode
from .profiles import PROFILES, VersionProfile

__all__ = ["PROFILES", "GeneratedBinlog", "VersionProfile", "built_binlogs", "differences", "encode"]
