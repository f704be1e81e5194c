"""Markdown for docs/replication-clients.md from record-clients' runs: per client, the commands
in the order sent with the server's answer, and one matrix of statement x client."""
from __future__ import annotations

import re
from typing import Any

_MAX_TEXT = 2000   # statements are shown whole: the primary must match them exactly
_ARG_KEYS = ("file", "position", "flags", "server_id", "gtid_set", "report_host", "report_port",
             "schema", "query_attributes", "statement_id", "values")


def command_text(cmd: dict[str, Any]) -> str:
    """The statement for COM_QUERY, else the command with its arguments."""
    if "query" in cmd:
        return " ".join(str(cmd["query"]).split())
    if "statement" in cmd:
        return f"{cmd['command']}: " + " ".join(str(cmd["statement"]).split())
    args = ", ".join(f"{k}={cmd[k]!r}" for k in _ARG_KEYS if k in cmd)
    return f"{cmd['command']}({args})" if args else str(cmd["command"])


def _cell(text: str) -> str:
    text = text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT - 1] + "…"
    return text.replace("|", "\\|")


def in_order(run: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(connection, command) in the order the proxy saw the commands, across connections."""
    pairs = [(conn, cmd) for conn in run["connections"] for cmd in conn["commands"]]
    return sorted(pairs, key=lambda p: p[1].get("order", 0))


def run_table(run: dict[str, Any]) -> list[str]:
    lines = [f"### {run['client']} → {run['server']} ({run['server_version']})", "",
             f"Outcome: {run['outcome']}", ""]
    notes = [f"connection {c['id']}: {c['note']}" for c in run["connections"] if c.get("note")]
    lines += [f"Note: {n}" for n in notes] + ([""] if notes else [])
    lines += ["| # | conn | command | server's answer |", "|---|---|---|---|"]
    for n, (conn, cmd) in enumerate(in_order(run), 1):
        answer = cmd.get("response", "")
        if cmd.get("columns"):
            answer += ": " + ", ".join(cmd["columns"])
        if cmd.get("response_packets", 0) > 1:
            answer += f" … {cmd['response_packets']} packets"
        lines.append(f"| {n} | {conn['id']} | `{_cell(command_text(cmd))}` | {_cell(answer)} |")
    return lines + [""]


_VARYING = ((re.compile(r"'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(:\d+)?'"),
             "'<uuid>'"), (re.compile(r"^KILL \d+$"), "KILL <connection id>"))


def _normalized(cmd: dict[str, Any]) -> str:
    """The statement with run-specific parts (UUIDs, connection ids) as placeholders, so the
    matrix has one row per statement; other commands by name only."""
    if cmd["command"] not in ("COM_QUERY", "COM_STMT_PREPARE"):
        return str(cmd["command"])
    text = command_text(cmd)
    for pattern, placeholder in _VARYING:
        text = pattern.sub(placeholder, text)
    return text


def matrix(runs: list[dict[str, Any]]) -> list[str]:
    """Statement x client: the position(s) at which each client sent it."""
    statements: list[str] = []
    where: dict[tuple[str, int], list[str]] = {}
    for i, run in enumerate(runs):
        for n, (_conn, cmd) in enumerate(in_order(run), 1):
            key = _normalized(cmd)
            if key not in statements:
                statements.append(key)
            where.setdefault((key, i), []).append(str(n))
    legend = [f"{i + 1}. {r['client']} @ {r['server']}" for i, r in enumerate(runs)]
    lines = ["Columns:", "", *legend, "",
             "| statement | " + " | ".join(str(i + 1) for i in range(len(runs))) + " |",
             "|---|" + "---|" * len(runs)]
    for s in statements:
        cells = [",".join(where.get((s, i), [])) for i in range(len(runs))]
        lines.append(f"| `{_cell(s)}` | " + " | ".join(cells) + " |")
    return lines + [""]


def markdown(runs: list[dict[str, Any]]) -> str:
    out = ["## Statement × client (numbers: position in that client's sequence)", "",
           *matrix(runs), "## Each client, in order", ""]
    for run in runs:
        out += run_table(run)
    return "\n".join(out)
