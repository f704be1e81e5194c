"""HTML of the summary matrix (summary.py computes it): one row per parser, one column group per
feature area, each cell "passed/total" on a red-to-green scale with its expected-failure count,
linking to the list of its failing cases."""
from __future__ import annotations

from html import escape

from .summary import Summary, Tally

STYLE = """
table.summary th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;
 font-weight:normal;font-size:11px;padding:4px 2px}
table.summary th.area{text-align:center}
table.summary tr>th:first-child{white-space:nowrap}
table.summary td{font-size:10px;padding:1px 2px;text-align:center;white-space:nowrap}
table.summary td a{color:#222;text-decoration:none}
table.summary td.empty{background:#fff}
table.summary sup{color:#555;font-size:8px}
table.summary .gap{border-left:3px solid #888}
.cell-failures{margin:.3em 0;font-size:12px}
"""


def colour(t: Tally) -> str:
    """Red (none passed) through yellow to green (all passed)."""
    return f"hsl({round(120 * t.ratio)},65%,{72 + round(10 * t.ratio)}%)"


def _cell(t: Tally | None, anchor: str, gap: str) -> str:
    if t is None or t.total == 0:
        return f'<td class="empty{gap}"></td>'
    xf = f"<sup title=\"expected failures\">{t.expected}xf</sup>" if t.expected else ""
    text = f"{t.passed}/{t.total}{xf}"
    if t.failing:
        text = f'<a href="#{anchor}">{text}</a>'
    return f'<td class="{gap.strip()}" style="background:{colour(t)}">{text}</td>'


def render(s: Summary, failure_anchor: dict[tuple[str, str], str]) -> str:
    """The table, then the failing cases of each cell with a failure (what its link opens).
    `failure_anchor`: (parser, case) -> the id of its row in the report's failure list."""
    groups = "".join(f'<th class="area gap" colspan="{len(vs)}">{escape(a)}</th>' for a, vs in s.areas)
    heads = "".join(f'<th class="v{" gap" if i == 0 else ""}" title="{escape(v)}">{escape(_short(v))}</th>'
                    for _, vs in s.areas for i, v in enumerate(vs))
    rows, lists = [], []
    for parser in s.parsers:
        cells = []
        for area, values in s.areas:
            for i, value in enumerate(values):
                t = s.cell(parser, area, value)
                anchor = f"cell-{len(lists)}"
                cells.append(_cell(t, anchor, " gap" if i == 0 else ""))
                if t is not None and t.failing:
                    links = ", ".join(_case_link(failure_anchor.get((parser, c)), c) for c in t.failing)
                    lists.append(f'<div class="cell-failures" id="{anchor}"><b>{escape(parser)}</b> · '
                                 f"{escape(area)} · {escape(value)}: {links}</div>")
        rows.append(f'<tr data-parser="{escape(parser)}"><th>{escape(parser)}</th>{"".join(cells)}</tr>')
    table = (f'<table class="summary"><tr><th rowspan="2">parser</th>{groups}</tr>'
             f'<tr>{heads}</tr>{"".join(rows)}</table>')
    legend = ("<p>Each cell: cases of that parser exercising that feature that passed / all of them "
              "(skipped and unavailable cases left out); <sup>Nxf</sup>: failures its expected-failure "
              "file names. Colour: red none passed, green all passed. A cell links to its failing "
              "cases.</p>")
    failing = f"<h3>Failing cases by cell</h3>{''.join(lists)}" if lists else ""
    return legend + table + failing


def _short(value: str) -> str:
    """Column heads without the suffix every event type shares (the tooltip has the full name)."""
    return value.removesuffix("_EVENT")


def _case_link(anchor: str | None, case: str) -> str:
    return f'<a href="#{anchor}">{escape(case)}</a>' if anchor else escape(case)
