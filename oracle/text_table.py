"""Plain-text tables for the CLI reports (verify, survey): columns padded to their widest cell."""
from __future__ import annotations

from typing import Iterable, Sequence


def render(headers: Sequence[str], rows: Iterable[Sequence[object]], max_width: int = 60) -> str:
    """Cells are str()-ed, newlines shown as \\n and cut to max_width so one row is one line."""
    cells = [[_cell(c, max_width) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def _cell(value: object, max_width: int) -> str:
    s = str(value).replace("\n", "\\n")
    return s if len(s) <= max_width else s[:max_width - 3] + "..."
