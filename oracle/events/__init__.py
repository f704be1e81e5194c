"""The decode table: event type code -> body decoder.

A decoder is a pure function `(body: Reader, ctx: DecodeContext, header: Header) -> dict` whose
reader covers the event body (post-header and payload, without the checksum). One module per
event family, named after it.
"""
from __future__ import annotations

from typing import Any, Callable

from ..context import DecodeContext
from ..event_types import EventType as T
from ..header import Header
from ..reader import Reader
from . import (control, format_description, gtid, heartbeat, ignorable, incident, load,
               mariadb_annotate_rows, mariadb_binlog_checkpoint, mariadb_gtid, mariadb_gtid_list,
               mariadb_start_encryption, opaque, previous_gtids, query, rows, rows_query,
               session_vars, table_map, transaction_context, transaction_payload, view_change,
               xa_prepare, xid)

Decoder = Callable[[Reader, DecodeContext, Header], dict[str, Any]]

ROWS_TYPES = (
    T.PRE_GA_WRITE_ROWS_EVENT, T.PRE_GA_UPDATE_ROWS_EVENT, T.PRE_GA_DELETE_ROWS_EVENT,
    T.WRITE_ROWS_EVENT_V1, T.UPDATE_ROWS_EVENT_V1, T.DELETE_ROWS_EVENT_V1,
    T.WRITE_ROWS_EVENT, T.UPDATE_ROWS_EVENT, T.DELETE_ROWS_EVENT, T.PARTIAL_UPDATE_ROWS_EVENT,
    T.WRITE_ROWS_COMPRESSED_EVENT_V1, T.UPDATE_ROWS_COMPRESSED_EVENT_V1,
    T.DELETE_ROWS_COMPRESSED_EVENT_V1, T.WRITE_ROWS_COMPRESSED_EVENT,
    T.UPDATE_ROWS_COMPRESSED_EVENT, T.DELETE_ROWS_COMPRESSED_EVENT,
)

DECODERS: dict[int, Decoder] = {
    T.START_EVENT_V3: format_description.decode_start_v3,
    T.QUERY_EVENT: query.decode,
    T.STOP_EVENT: control.decode_stop,
    T.ROTATE_EVENT: control.decode_rotate,
    T.INTVAR_EVENT: session_vars.decode_intvar,
    T.LOAD_EVENT: load.decode_load,
    T.SLAVE_EVENT: opaque.decode_opaque,
    T.CREATE_FILE_EVENT: load.decode_create_file,
    T.APPEND_BLOCK_EVENT: load.decode_append_block,
    T.EXEC_LOAD_EVENT: load.decode_exec_load,
    T.DELETE_FILE_EVENT: load.decode_delete_file,
    T.NEW_LOAD_EVENT: load.decode_new_load,
    T.RAND_EVENT: session_vars.decode_rand,
    T.USER_VAR_EVENT: session_vars.decode_user_var,
    T.FORMAT_DESCRIPTION_EVENT: format_description.decode,
    T.XID_EVENT: xid.decode,
    T.BEGIN_LOAD_QUERY_EVENT: load.decode_begin_load_query,
    T.EXECUTE_LOAD_QUERY_EVENT: load.decode_execute_load_query,
    T.TABLE_MAP_EVENT: table_map.decode,
    **{code: rows.decode for code in ROWS_TYPES},
    T.INCIDENT_EVENT: incident.decode,
    T.HEARTBEAT_LOG_EVENT: heartbeat.decode_v1,
    T.IGNORABLE_LOG_EVENT: ignorable.decode,
    T.ROWS_QUERY_LOG_EVENT: rows_query.decode,
    T.GTID_LOG_EVENT: gtid.decode,
    T.ANONYMOUS_GTID_LOG_EVENT: gtid.decode,
    T.PREVIOUS_GTIDS_LOG_EVENT: previous_gtids.decode,
    T.TRANSACTION_CONTEXT_EVENT: transaction_context.decode,
    T.VIEW_CHANGE_EVENT: view_change.decode,
    T.XA_PREPARE_LOG_EVENT: xa_prepare.decode,
    T.TRANSACTION_PAYLOAD_EVENT: transaction_payload.decode,
    T.HEARTBEAT_LOG_EVENT_V2: heartbeat.decode_v2,
    T.GTID_TAGGED_LOG_EVENT: gtid.decode_tagged,
    T.ANNOTATE_ROWS_EVENT: mariadb_annotate_rows.decode,
    T.BINLOG_CHECKPOINT_EVENT: mariadb_binlog_checkpoint.decode,
    T.GTID_EVENT: mariadb_gtid.decode,
    T.GTID_LIST_EVENT: mariadb_gtid_list.decode,
    T.START_ENCRYPTION_EVENT: mariadb_start_encryption.decode,
    T.QUERY_COMPRESSED_EVENT: query.decode_compressed,
}
