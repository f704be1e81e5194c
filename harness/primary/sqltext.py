"""Splitting SQL text outside its quoted strings and identifiers (the statements the primary
answers, and the DDL it replays from a served binlog)."""
from __future__ import annotations

from typing import Iterator


def outside_quotes(text: str) -> Iterator[tuple[int, str]]:
    """(offset, character) of the characters outside quoted strings and identifiers."""
    quote = ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"`":
            quote = c
        else:
            yield i, c


def split_top_level(text: str) -> list[str]:
    """Split at commas outside quotes and parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in outside_quotes(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]
