"""Runtimes that build a third-party parser's folder (harness/parsers/<folder>/) from its
committed manifest and lock into the cache, and give the command line that starts its adapter.
One module per runtime: node, jvm, go, rust (harness/parsers/README.md)."""
