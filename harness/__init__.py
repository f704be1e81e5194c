"""Conformance harness: run binlog parsers under test over a corpus and classify every outcome.

See docs/plugin-contract.md (how a parser plugs in) and docs/gating-ci.md (how to gate CI on it).
"""
