"""What each event's print() writes after the common header, mapped to type codes and body fields.

The label is the text after the header's tab (or, for events whose print() starts a new line,
such as Begin_load_query and Incident, the next `#` line). Each entry of LABELS is a pattern
matched at the start of the label, the type codes it can stand for, and a function that reads
the body fields out of the label and the lines the event printed. Fields are named as MySQL's
and MariaDB's sources name them (see docs/canonical-model.md).

Sources: MySQL sql/log_event.cc (Log_event::get_type_str and each print()), mysqlbinlog.cc
(Transaction_payload), MariaDB sql/log_event_client.cc; checked against real output.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from .event_types import EventType as T
from .mysqlbinlog_values import to_bytes, unquote
from .values import integer, text

Body = dict[str, Any]
BodyParser = Callable[[re.Match[str], list[str]], Body]

_DELIMITER = "/*!*/;"


def _none(m: re.Match[str], lines: list[str]) -> Body:
    return {}


def _ints(m: re.Match[str], *names: str) -> Body:
    return {name: integer(int(m[name])) for name in names if m[name] is not None}


def _tab_fields(label: str) -> dict[str, str]:
    """`key=value` (and MySQL's `Xid = N`) items of a tab-separated label."""
    out = {}
    for item in label.split("\t")[1:]:
        key, sep, value = item.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def _sql_text(s: str) -> Any:
    return text(to_bytes(s))


def _identifier(quoted: str) -> Any:
    """`name` as my_strmov_quoted_identifier writes it (a backtick inside is doubled)."""
    if len(quoted) >= 2 and quoted[0] == quoted[-1] == "`":
        quoted = quoted[1:-1].replace("``", "`")
    return _sql_text(quoted)


# -- Query ---------------------------------------------------------------------------------------
# Query_log_event::print_query_header: "Query\tthread_id=%lu\texec_time=%lu\terror_code=%d", then
# MySQL's "\tXid = %llu" for DDL and MariaDB's "\txid=%lu"; then the session setup lines (each
# ending in the delimiter) and the statement, which ends with a line holding only the delimiter.
_QUERY_FIELDS = {"thread_id": "thread_id", "exec_time": "query_exec_time",
                 "error_code": "error_code", "Xid": "ddl_xid", "xid": "xid"}
_USE = re.compile(r"use (`(?:[^`]|``)*`)/\*!\*/;$")


def _query(m: re.Match[str], lines: list[str]) -> Body:
    body: Body = {}
    for key, value in _tab_fields(m.string).items():
        if key in _QUERY_FIELDS and re.fullmatch(r"-?\d+", value):
            body[_QUERY_FIELDS[key]] = integer(int(value))
    i = 0
    while i < len(lines) and lines[i].endswith(_DELIMITER) and lines[i] != _DELIMITER:
        use = _USE.match(lines[i])
        if use:
            body["db"] = _identifier(use[1])
        i += 1
    if _DELIMITER in lines[i:]:
        end = lines.index(_DELIMITER, i)
        body["query"] = _sql_text("\n".join(lines[i:end]))
    return body


def _execute_load_query(m: re.Match[str], lines: list[str]) -> Body:
    """mysqlbinlog rewrites the statement to load its own temporary copy of the file, so the
    printed text is not the stored query; keep it apart."""
    body = _query(m, lines)
    if "query" in body:
        body["printed_query"] = body.pop("query")
    return body


# -- small events ----------------------------------------------------------------------------------
def _start(m: re.Match[str], lines: list[str]) -> Body:
    body: Body = {"binlog_version": int(m["v"]), "server_version": m["server"]}
    if m["startup"]:
        body["at_startup"] = True
    return body


def _rotate(m: re.Match[str], lines: list[str]) -> Body:
    return {"new_log_ident": _sql_text(m["ident"]), **_ints(m, "pos")}


def _intvar(m: re.Match[str], lines: list[str]) -> Body:
    """Intvar_log_event::print: "SET INSERT_ID=%s" or "SET LAST_INSERT_ID=%s"."""
    for line in lines:
        set_ = re.match(r"SET (INSERT_ID|LAST_INSERT_ID)=(\d+)", line)
        if set_:
            return {"type_name": set_[1], "val": integer(int(set_[2]))}
    return {}


def _rand(m: re.Match[str], lines: list[str]) -> Body:
    for line in lines:
        seeds = re.match(r"SET @@RAND_SEED1=(\d+), @@RAND_SEED2=(\d+)", line)
        if seeds:
            return {"seed1": integer(int(seeds[1])), "seed2": integer(int(seeds[2]))}
    return {}


def _user_var(m: re.Match[str], lines: list[str]) -> Body:
    for line in lines:
        set_ = re.match(r"SET @(`(?:[^`]|``)*`):=(.*)/\*!\*/;$", line)
        if set_:
            return {"name": _identifier(set_[1]), "value_text": _sql_text(set_[2])}
    return {}


def _table_map(m: re.Match[str], lines: list[str]) -> Body:
    return {"schema": _identifier(m["db"]), "table": _identifier(m["table"]), **_ints(m, "table_id")}


def _rows(m: re.Match[str], lines: list[str]) -> Body:
    body: Body = _ints(m, "table_id")
    if m["flags"]:
        body["flags"] = m["flags"].split()
    return body


# MySQL Gtid_log_event::print labels its fields; "original_committed_timestamp" is the printed
# spelling of the field the source calls original_commit_timestamp.
_GTID_FIELDS = {"last_committed": "last_committed", "sequence_number": "sequence_number",
                "original_committed_timestamp": "original_commit_timestamp",
                "immediate_commit_timestamp": "immediate_commit_timestamp",
                "transaction_length": "transaction_length"}
_GTID_NEXT = re.compile(r"SET @@SESSION\.GTID_NEXT= '([^']*)'")


def _gtid(m: re.Match[str], lines: list[str]) -> Body:
    fields = _tab_fields(m.string)
    body: Body = {name: integer(int(fields[key])) for key, name in _GTID_FIELDS.items()
                  if key in fields and fields[key].isdigit()}
    if "rbr_only" in fields:
        body["rbr_only"] = fields["rbr_only"] == "yes"
    for line in lines:
        nxt = _GTID_NEXT.match(line)
        if nxt:
            body["gtid"] = nxt[1]
    return body


def _previous_gtids(m: re.Match[str], lines: list[str]) -> Body:
    """Previous_gtids_log_event::print: "# " and the set, whose UUIDs are separated by ",\\n"
    (mysqlbinlog 9.7 starts each line with "# "; a line without it is read as it is); "[empty]"
    for the empty set."""
    joined = "\n".join(line[2:] if line.startswith("# ") else line for line in lines)
    return {"gtid_set": "" if joined == "[empty]" else joined}


def _xid(m: re.Match[str], lines: list[str]) -> Body:
    return _ints(m, "xid")


def _ignorable(m: re.Match[str], lines: list[str]) -> Body:
    return {}


def _mariadb_gtid(m: re.Match[str], lines: list[str]) -> Body:
    """"GTID <domain>-<server>-<seq_no>" and words for flags ("trans", "ddl", "cid=N", ...)."""
    body = {"gtid": f"{m['domain_id']}-{m['server_id']}-{m['seq_no']}", **_ints(m, "domain_id", "seq_no")}
    body["flags_text"] = m["rest"].split()
    return body


def _xa(m: re.Match[str], lines: list[str]) -> Body:
    """XA_prepare: MySQL "XA PREPARE <xid>", MariaDB "XID = <xid>" then "XA PREPARE <xid>", or
    "XA COMMIT <xid> ONE PHASE" for a one-phase commit."""
    return {"xid": m["xid"], "one_phase": any(line.endswith(" ONE PHASE") for line in lines)}


def _mariadb_gtid_list(m: re.Match[str], lines: list[str]) -> Body:
    items = m["list"].split(",") if m["list"] else []
    return {"list": items}


def _binlog_checkpoint(m: re.Match[str], lines: list[str]) -> Body:
    return {"binlog_file_name": _sql_text(m["file"])}


def _commented(prefix: str, name: str) -> BodyParser:
    """Statements printed as comments, each line behind a prefix: Annotate_rows ("#Q> "),
    Rows_query ("# "; mysqlbinlog 9.7 doubles its backslashes, so that text is kept apart as
    rows_query_printed rather than compared with the stored statement)."""
    def parse(m: re.Match[str], lines: list[str]) -> Body:
        q = [line[len(prefix):] for line in lines if line.startswith(prefix)]
        return {name: _sql_text("\n".join(q))} if q else {}
    return parse


def _payload(m: re.Match[str], lines: list[str]) -> Body:
    fields = _tab_fields(m.string)
    body: Body = {}
    for key, value in fields.items():
        body[key] = integer(int(value)) if value.isdigit() else value
    return body


_R = re.compile
# Start_log_event_v3::print (also for Format_description): "created" only when the field is set.
# The server version may hold spaces (MariaDB 11.8 from Debian: "11.8.6-MariaDB-0+deb13u1 from Debian-log").
_START = r", server v (?P<server>.*?)(?: created (?P<created>.{15}))?(?P<startup> at startup)?$"
_ROWS = r"(?:: table id (?P<table_id>\d+)(?: flags: (?P<flags>.*))?)?"
LABELS: list[tuple[re.Pattern[str], tuple[int, ...], BodyParser]] = [
    (_R(r"Start: binlog v (?P<v>4)" + _START), (T.FORMAT_DESCRIPTION_EVENT,), _start),
    (_R(r"Start: binlog v (?P<v>[13])" + _START), (T.START_EVENT_V3,), _start),
    (_R(r"Query_compressed(?:\t|$)"), (T.QUERY_COMPRESSED_EVENT,), _query),
    (_R(r"Query(?:\t|$)"), (T.QUERY_EVENT,), _query),
    (_R(r"Stop$"), (T.STOP_EVENT,), _none),
    (_R(r"Rotate to (?P<ident>.*?)  pos: (?P<pos>\d+)"), (T.ROTATE_EVENT,), _rotate),
    (_R(r"Intvar$"), (T.INTVAR_EVENT,), _intvar),
    (_R(r"Rand$"), (T.RAND_EVENT,), _rand),
    (_R(r"User_var$"), (T.USER_VAR_EVENT,), _user_var),
    (_R(r"Xid = (?P<xid>\d+)"), (T.XID_EVENT,), _xid),
    (_R(r"Begin_load_query:"), (T.BEGIN_LOAD_QUERY_EVENT,), _none),
    (_R(r"Execute_load_query(?:\t|$)"), (T.EXECUTE_LOAD_QUERY_EVENT,), _execute_load_query),
    (_R(r"Append_block:"), (T.APPEND_BLOCK_EVENT,), _none),
    (_R(r"Create_file:"), (T.CREATE_FILE_EVENT,), _none),
    (_R(r"Exec_load:"), (T.EXEC_LOAD_EVENT,), _none),
    (_R(r"Delete_file:"), (T.DELETE_FILE_EVENT,), _none),
    (_R(r"Table_map: (?P<db>`(?:[^`]|``)*`)\.(?P<table>`(?:[^`]|``)*`) mapped to number (?P<table_id>\d+)"),
     (T.TABLE_MAP_EVENT,), _table_map),
    (_R(r"Write_rows_event_old" + _ROWS), (T.PRE_GA_WRITE_ROWS_EVENT,), _rows),
    (_R(r"Update_rows_event_old" + _ROWS), (T.PRE_GA_UPDATE_ROWS_EVENT,), _rows),
    (_R(r"Delete_rows_event_old" + _ROWS), (T.PRE_GA_DELETE_ROWS_EVENT,), _rows),
    (_R(r"Write_rows_v1" + _ROWS), (T.WRITE_ROWS_EVENT_V1,), _rows),
    (_R(r"Update_rows_v1" + _ROWS), (T.UPDATE_ROWS_EVENT_V1,), _rows),
    (_R(r"Delete_rows_v1" + _ROWS), (T.DELETE_ROWS_EVENT_V1,), _rows),
    (_R(r"Update_rows_partial" + _ROWS), (T.PARTIAL_UPDATE_ROWS_EVENT,), _rows),
    (_R(r"Write_compressed_rows" + _ROWS),
     (T.WRITE_ROWS_COMPRESSED_EVENT_V1, T.WRITE_ROWS_COMPRESSED_EVENT), _rows),
    (_R(r"Update_compressed_rows" + _ROWS),
     (T.UPDATE_ROWS_COMPRESSED_EVENT_V1, T.UPDATE_ROWS_COMPRESSED_EVENT), _rows),
    (_R(r"Delete_compressed_rows" + _ROWS),
     (T.DELETE_ROWS_COMPRESSED_EVENT_V1, T.DELETE_ROWS_COMPRESSED_EVENT), _rows),
    # MySQL prints "_v1" for types 23-25, so "Write_rows" is 30 there; mariadb-binlog prints
    # "Write_rows" for both.
    (_R(r"Write_rows" + _ROWS + "$"), (T.WRITE_ROWS_EVENT_V1, T.WRITE_ROWS_EVENT), _rows),
    (_R(r"Update_rows" + _ROWS + "$"), (T.UPDATE_ROWS_EVENT_V1, T.UPDATE_ROWS_EVENT), _rows),
    (_R(r"Delete_rows" + _ROWS + "$"), (T.DELETE_ROWS_EVENT_V1, T.DELETE_ROWS_EVENT), _rows),
    (_R(r"Incident:"), (T.INCIDENT_EVENT,), _none),
    (_R(r"Rows_query"), (T.ROWS_QUERY_LOG_EVENT,), _commented("# ", "rows_query_printed")),
    (_R(r"GTID(?:\t|$)"), (T.GTID_LOG_EVENT, T.GTID_TAGGED_LOG_EVENT), _gtid),
    (_R(r"Anonymous_GTID(?:\t|$)"), (T.ANONYMOUS_GTID_LOG_EVENT,), _gtid),
    (_R(r"Previous-GTIDs$"), (T.PREVIOUS_GTIDS_LOG_EVENT,), _previous_gtids),
    (_R(r"Transaction_context"), (T.TRANSACTION_CONTEXT_EVENT,), _none),
    (_R(r"View_change"), (T.VIEW_CHANGE_EVENT,), _none),
    (_R(r"Transaction_Payload(?:\t|$)"), (T.TRANSACTION_PAYLOAD_EVENT,), _payload),
    (_R(r"Annotate_rows:"), (T.ANNOTATE_ROWS_EVENT,), _commented("#Q> ", "query")),
    (_R(r"Binlog checkpoint (?P<file>.*)$"), (T.BINLOG_CHECKPOINT_EVENT,), _binlog_checkpoint),
    (_R(r"GTID (?P<domain_id>\d+)-(?P<server_id>\d+)-(?P<seq_no>\d+)(?P<rest>.*)$"), (T.GTID_EVENT,), _mariadb_gtid),
    (_R(r"Gtid list \[(?P<list>[^\]]*)\]"), (T.GTID_LIST_EVENT,), _mariadb_gtid_list),
    (_R(r"(?:XA PREPARE|XID =) (?P<xid>X'[0-9a-f]*',X'[0-9a-f]*',\d+)"), (T.XA_PREPARE_LOG_EVENT,), _xa),
    (_R(r"Ignorable$"), (T.IGNORABLE_LOG_EVENT,), _ignorable),
]

# Ignorable_log_event::print (and mariadb-binlog for MySQL events it does not know):
# "# Ignorable event type %d (%s)": the line gives the real type code.
_IGNORED_TYPE = re.compile(r"# Ignorable event type (\d+)")


def label_of(label: str, lines: list[str]) -> str:
    """Events whose print() starts on a new line (Begin_load_query, Incident, ...) leave the
    header's label empty; their label is the next `#` line."""
    if label.strip() or not lines:
        return label
    return lines[0].lstrip("#").lstrip()


def identify(label: str, lines: list[str]) -> tuple[tuple[int, ...], Body]:
    """The type codes a printed event can be, and the body fields the text gives."""
    label = label_of(label, lines)
    for pattern, codes, parse in LABELS:
        m = pattern.match(label)
        if m:
            body = parse(m, lines)
            if codes == (T.IGNORABLE_LOG_EVENT,):
                codes = _ignored_codes(lines) or codes
            return tuple(int(c) for c in codes), body
    return (), {}


def _ignored_codes(lines: list[str]) -> tuple[int, ...]:
    for line in lines:
        m = _IGNORED_TYPE.match(line)
        if m:
            return (int(m[1]),)
    return ()
