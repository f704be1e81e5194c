package main

// The event's canonical type name as go-mysql itself names the event: its EventType's String()
// (replication/const.go), never the header's type byte read on our own. A code go-mysql has no
// name for is its "UnknownEvent" (MariaDB's compressed rows v2 among them): type null, so the
// harness shows an event the library cannot name (docs/plugin-contract.md, "type").

import "github.com/go-mysql-org/go-mysql/replication"

var canonicalNames = map[string]string{
	"StartEventV3": "START_EVENT_V3", "QueryEvent": "QUERY_EVENT", "StopEvent": "STOP_EVENT",
	"RotateEvent": "ROTATE_EVENT", "IntVarEvent": "INTVAR_EVENT", "LoadEvent": "LOAD_EVENT",
	"SlaveEvent": "SLAVE_EVENT", "CreateFileEvent": "CREATE_FILE_EVENT", "AppendBlockEvent": "APPEND_BLOCK_EVENT",
	"ExecLoadEvent": "EXEC_LOAD_EVENT", "DeleteFileEvent": "DELETE_FILE_EVENT", "NewLoadEvent": "NEW_LOAD_EVENT",
	"RandEvent": "RAND_EVENT", "UserVarEvent": "USER_VAR_EVENT", "FormatDescriptionEvent": "FORMAT_DESCRIPTION_EVENT",
	"XIDEvent": "XID_EVENT", "BeginLoadQueryEvent": "BEGIN_LOAD_QUERY_EVENT",
	"ExectueLoadQueryEvent": "EXECUTE_LOAD_QUERY_EVENT", // sic: the library's spelling
	"TableMapEvent":         "TABLE_MAP_EVENT", "WriteRowsEventV0": "PRE_GA_WRITE_ROWS_EVENT",
	"UpdateRowsEventV0": "PRE_GA_UPDATE_ROWS_EVENT", "DeleteRowsEventV0": "PRE_GA_DELETE_ROWS_EVENT",
	"WriteRowsEventV1": "WRITE_ROWS_EVENT_V1", "UpdateRowsEventV1": "UPDATE_ROWS_EVENT_V1",
	"DeleteRowsEventV1": "DELETE_ROWS_EVENT_V1", "IncidentEvent": "INCIDENT_EVENT",
	"HeartbeatEvent": "HEARTBEAT_LOG_EVENT", "IgnorableEvent": "IGNORABLE_LOG_EVENT",
	"RowsQueryEvent": "ROWS_QUERY_LOG_EVENT", "WriteRowsEventV2": "WRITE_ROWS_EVENT",
	"UpdateRowsEventV2": "UPDATE_ROWS_EVENT", "DeleteRowsEventV2": "DELETE_ROWS_EVENT",
	"GTIDEvent": "GTID_LOG_EVENT", "AnonymousGTIDEvent": "ANONYMOUS_GTID_LOG_EVENT",
	"PreviousGTIDsEvent": "PREVIOUS_GTIDS_LOG_EVENT", "MariadbAnnotateRowsEvent": "ANNOTATE_ROWS_EVENT",
	"MariadbBinLogCheckPointEvent": "BINLOG_CHECKPOINT_EVENT", "MariadbGTIDEvent": "GTID_EVENT",
	"MariadbGTIDListEvent": "GTID_LIST_EVENT", "TransactionContextEvent": "TRANSACTION_CONTEXT_EVENT",
	"ViewChangeEvent": "VIEW_CHANGE_EVENT", "XAPrepareLogEvent": "XA_PREPARE_LOG_EVENT",
	"PartialUpdateRowsEvent": "PARTIAL_UPDATE_ROWS_EVENT", "TransactionPayloadEvent": "TRANSACTION_PAYLOAD_EVENT",
	"HeartbeatLogEventV2": "HEARTBEAT_LOG_EVENT_V2", "Gtid_tagged_log_event": "GTID_TAGGED_LOG_EVENT",
	"MariadbStartEncryptionEvent": "START_ENCRYPTION_EVENT", "MariadbQueryCompressedEvent": "QUERY_COMPRESSED_EVENT",
	"MariadbWriteRowsCompressedEventV1":  "WRITE_ROWS_COMPRESSED_EVENT_V1",
	"MariadbUpdateRowsCompressedEventV1": "UPDATE_ROWS_COMPRESSED_EVENT_V1",
	"MariadbDeleteRowsCompressedEventV1": "DELETE_ROWS_COMPRESSED_EVENT_V1",
}

// typeName: the canonical name of go-mysql's own name for the event, or nil (JSON null).
func typeName(t replication.EventType) any {
	if name, ok := canonicalNames[t.String()]; ok {
		return name
	}
	return nil
}
