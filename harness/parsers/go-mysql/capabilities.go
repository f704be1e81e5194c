package main

// What the adapter reports, and so what is compared: the fields each event struct of go-mysql
// exposes (events.go), and the row values of every column type (rows.go).

var rowsTypes = []string{"PRE_GA_WRITE_ROWS_EVENT", "PRE_GA_UPDATE_ROWS_EVENT", "PRE_GA_DELETE_ROWS_EVENT",
	"WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1",
	"WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT",
	"WRITE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT_V1"}

// MariaDB's compressed rows events of the second version, which go-mysql does not decode (a
// GenericEvent): the user gets no rows, so "rows" is claimed and reported empty.
var undecodedRowsTypes = map[uint8]string{169: "WRITE_ROWS_COMPRESSED_EVENT", 170: "UPDATE_ROWS_COMPRESSED_EVENT",
	171: "DELETE_ROWS_COMPRESSED_EVENT"}

var undecodedRows = func() map[uint8]bool {
	m := map[uint8]bool{}
	for code := range undecodedRowsTypes {
		m[code] = true
	}
	return m
}()

var gtidFields = []string{"gtid_flags", "sid", "gno", "last_committed", "sequence_number",
	"immediate_commit_timestamp", "original_commit_timestamp", "transaction_length",
	"immediate_server_version", "original_server_version"}

func capabilities() map[string]any {
	bodies := map[string]any{
		"FORMAT_DESCRIPTION_EVENT":  []string{"binlog_version", "server_version", "created", "common_header_len"},
		"ROTATE_EVENT":              []string{"pos", "new_log_ident"},
		"QUERY_EVENT":               []string{"thread_id", "query_exec_time", "error_code", "status_vars_len", "db", "query"},
		"QUERY_COMPRESSED_EVENT":    []string{"thread_id", "query_exec_time", "error_code", "db", "query"},
		"XID_EVENT":                 []string{"xid"},
		"INTVAR_EVENT":              []string{"type", "val"},
		"GTID_LOG_EVENT":            gtidFields,
		"ANONYMOUS_GTID_LOG_EVENT":  gtidFields,
		"GTID_TAGGED_LOG_EVENT":     gtidFields,
		"PREVIOUS_GTIDS_LOG_EVENT":  []string{"gtid_set"},
		"TABLE_MAP_EVENT":           []string{"table_id", "flags", "schema", "table", "column_count", "column_types", "null_bitmap"},
		"ROWS_QUERY_LOG_EVENT":      []string{"rows_query"},
		"ANNOTATE_ROWS_EVENT":       []string{"query"},
		"GTID_EVENT":                []string{"seq_no", "domain_id", "flags2", "gtid"},
		"GTID_LIST_EVENT":           []string{"count", "gtid_list"},
		"TRANSACTION_PAYLOAD_EVENT": []string{"payload_size", "uncompressed_size", "compression_type", "events"},
	}
	for _, t := range rowsTypes {
		bodies[t] = []string{"table_id", "width", "rows"}
	}
	for _, t := range undecodedRowsTypes {
		bodies[t] = []string{"rows"}
	}
	return map[string]any{
		"header":         []string{"position", "event_size", "next_position", "type_code", "type", "server_id", "timestamp", "flags.value"},
		"bodies":         bodies,
		"every_event":    true,
		"partial_events": true,
		"row_values":     "*",
	}
}
