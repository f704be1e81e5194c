"""The encode table: event type code -> body encoder, the mirror of oracle/events/__init__.py.

A body encoder is `(body: dict, ctx: EncodeContext, head: EventHead) -> bytes`: the canonical
body back to the event body (post-header and payload, without the checksum).
"""
from __future__ import annotations

from typing import Any, Callable

from ...event_types import EventType as T
from ...events import ROWS_TYPES
from ..context import EncodeContext, EventHead
from . import (control, format_description, gtid, group_replication, heartbeat, load, mariadb_gtid,
               previous_gtids, query, rows, session_vars, simple, table_map, transaction_payload,
               xa_prepare)

BodyEncoder = Callable[[dict[str, Any], EncodeContext, EventHead], bytes]

ENCODERS: dict[int, BodyEncoder] = {
    T.START_EVENT_V3: format_description.encode_start_v3,
    T.QUERY_EVENT: query.encode,
    T.STOP_EVENT: control.encode_stop,
    T.ROTATE_EVENT: control.encode_rotate,
    T.INTVAR_EVENT: session_vars.encode_intvar,
    T.LOAD_EVENT: load.encode_load,
    T.SLAVE_EVENT: simple.encode_data,
    T.CREATE_FILE_EVENT: load.encode_create_file,
    T.APPEND_BLOCK_EVENT: load.encode_append_block,
    T.EXEC_LOAD_EVENT: load.encode_exec_load,
    T.DELETE_FILE_EVENT: load.encode_delete_file,
    T.NEW_LOAD_EVENT: load.encode_new_load,
    T.RAND_EVENT: session_vars.encode_rand,
    T.USER_VAR_EVENT: session_vars.encode_user_var,
    T.FORMAT_DESCRIPTION_EVENT: format_description.encode,
    T.XID_EVENT: simple.encode_xid,
    T.BEGIN_LOAD_QUERY_EVENT: load.encode_begin_load_query,
    T.EXECUTE_LOAD_QUERY_EVENT: load.encode_execute_load_query,
    T.TABLE_MAP_EVENT: table_map.encode,
    **{code: rows.encode for code in ROWS_TYPES},
    T.INCIDENT_EVENT: simple.encode_incident,
    T.HEARTBEAT_LOG_EVENT: heartbeat.encode_v1,
    T.IGNORABLE_LOG_EVENT: simple.encode_data,
    T.ROWS_QUERY_LOG_EVENT: simple.encode_rows_query,
    T.GTID_LOG_EVENT: gtid.encode,
    T.ANONYMOUS_GTID_LOG_EVENT: gtid.encode,
    T.PREVIOUS_GTIDS_LOG_EVENT: previous_gtids.encode,
    T.TRANSACTION_CONTEXT_EVENT: group_replication.encode_transaction_context,
    T.VIEW_CHANGE_EVENT: group_replication.encode_view_change,
    T.XA_PREPARE_LOG_EVENT: xa_prepare.encode,
    T.TRANSACTION_PAYLOAD_EVENT: transaction_payload.encode,
    T.HEARTBEAT_LOG_EVENT_V2: heartbeat.encode_v2,
    T.GTID_TAGGED_LOG_EVENT: gtid.encode_tagged,
    T.ANNOTATE_ROWS_EVENT: simple.encode_annotate_rows,
    T.BINLOG_CHECKPOINT_EVENT: mariadb_gtid.encode_binlog_checkpoint,
    T.GTID_EVENT: mariadb_gtid.encode_gtid,
    T.GTID_LIST_EVENT: mariadb_gtid.encode_gtid_list,
    T.START_ENCRYPTION_EVENT: simple.encode_start_encryption,
    T.QUERY_COMPRESSED_EVENT: query.encode_compressed,
}
