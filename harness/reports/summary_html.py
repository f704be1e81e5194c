"""HTML of the summary matrix (summary.py computes it): one row per parser, one column group per
feature area, each cell "checks passed/compared" on a red-to-green scale with its expected-failure
count, grey where nothing was compared (never green), linking to its failing cases, each with its
first failing check's expected and actual values."""
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
table.summary td.nc{background:#e4e4e4;color:#666}
.cell-failures{margin:.3em 0;font-size:12px}
.cell-failures li{font-family:monospace;font-size:11px}
"""


def colour(t: Tally) -> str:
    """Red (no check passed) through yellow to green (all passed)."""
    ratio = t.ratio if t.ratio is not None else 0.0
    return f"hsl({round(120 * ratio)},65%,{72 + round(10 * ratio)}%)"


def _title(t: Tally) -> str:
    return (f"checks: {t.passed} passed, {t.failed} failed, {t.not_compared} not compared; "
            f"{t.cases} cases, {len(t.failing)} with a failed check")


def _cell(t: Tally | None, anchor: str, gap: str) -> str:
    if t is None or t.cases == 0:
        return f'<td class="empty{gap}"></td>'
    xf = f"<sup title=\"expected failures\">{t.expected}xf</sup>" if t.expected else ""
    if not t.compared:  # nothing compared: grey, never green
        return f'<td class="nc{gap}" title="{escape(_title(t))}">nc</td>'
    text = f"{t.passed}/{t.compared}{xf}"
    if t.failing:
        text = f'<a href="#{anchor}">{text}</a>'
    return f'<td class="{gap.strip()}" style="background:{colour(t)}" title="{escape(_title(t))}">{text}</td>'


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
                    items = "".join(f"<li>{_case_link(failure_anchor.get((parser, c)), c)}: "
                                    f"{escape(t.first.get(c, ''))}</li>" for c in t.failing)
                    lists.append(f'<div class="cell-failures" id="{anchor}"><b>{escape(parser)}</b> · '
                                 f"{escape(area)} · {escape(value)}: {t.failed} failed checks in "
                                 f"{len(t.failing)} cases<ul>{items}</ul></div>")
        rows.append(f'<tr data-parser="{escape(parser)}"><th>{escape(parser)}</th>{"".join(cells)}</tr>')
    table = (f'<table class="summary"><tr><th rowspan="2">parser</th>{groups}</tr>'
             f'<tr>{heads}</tr>{"".join(rows)}</table>')
    legend = ("<p>Each cell: the checks of that parser's cases exercising that feature (an event type's "
              "own checks, a column type's row values, else every check of the cases) that passed / "
              "all compared; <span style=\"background:#e4e4e4\">nc</span>: none compared (the "
              "capabilities or a failed reply left them out). Skipped, unavailable and not-applicable "
              "cases left out; <sup>Nxf</sup>: failing cases its expected-failure file names. Colour: "
              "red none passed, green all passed; hover for passed / failed / not compared. A cell "
              "links to its failing cases, each with its first failing check, expected and actual.</p>")
    failing = f"<h3>Failing cases by cell</h3>{''.join(lists)}" if lists else ""
    return legend + table + failing


def _short(value: str) -> str:
    """Column heads without the suffix every event type shares (the tooltip has the full name)."""
    return value.removesuffix("_EVENT")


def _case_link(anchor: str | None, case: str) -> str:
    return f'<a href="#{anchor}">{escape(case)}</a>' if anchor else escape(case)
