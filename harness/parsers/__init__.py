"""The built-in parsers: one registry (registry.py) and one folder per third-party parser
project (harness/parsers/README.md)."""
