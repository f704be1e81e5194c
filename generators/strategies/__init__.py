"""Hypothesis strategies that build valid binlogs from scratch for MySQL version profiles
(5.6, 5.7, 8.0, 9.x): Format_description with the profile's real post-header lengths, Query
events with status variables, Table_map + rows events with rows of every column type, written
through oracle.encode.

    from generators.strategies import built_binlogs
    @given(built_binlogs("8.0"))
    def test_x(b): ...  # b.data: the file's bytes; b.events: the canonical events built
"""
from .binlog import GeneratedBinlog, built_binlogs, differences, encode
from .profiles import PROFILES, VersionProfile

__all__ = ["PROFILES", "GeneratedBinlog", "VersionProfile", "built_binlogs", "differences", "encode"]
