package conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the adapter reports (docs/plugin-contract.md), and only that: the header fields the
 * library keeps (no checksum: it strips CRC32 without checking it), the bodies Canonical maps,
 * and the column types whose values RowValues maps. */
final class Capabilities {
    private static final List<String> ROWS = List.of("table_id", "rows");
    static final List<String> ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG",
        "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "DATE", "TIME", "TIME2", "DATETIME", "DATETIME2",
        "TIMESTAMP", "TIMESTAMP2", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET", "JSON", "GEOMETRY",
        "VECTOR");

    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = new LinkedHashMap<>();
        bodies.put("QUERY_EVENT", List.of("thread_id", "query_exec_time", "error_code", "db", "query"));
        bodies.put("ROTATE_EVENT", List.of("pos", "new_log_ident"));
        bodies.put("XID_EVENT", List.of("xid"));
        bodies.put("FORMAT_DESCRIPTION_EVENT", List.of("binlog_version", "server_version", "common_header_len"));
        bodies.put("INTVAR_EVENT", List.of("type", "val"));
        bodies.put("TABLE_MAP_EVENT", List.of("table_id", "schema", "table", "column_count", "column_types"));
        bodies.put("ROWS_QUERY_LOG_EVENT", List.of("rows_query"));
        bodies.put("GTID_LOG_EVENT", List.of("gtid", "last_committed", "sequence_number"));
        bodies.put("ANNOTATE_ROWS_EVENT", List.of("query"));
        bodies.put("GTID_EVENT", List.of("seq_no", "domain_id"));
        bodies.put("BINLOG_CHECKPOINT_EVENT", List.of("binlog_file_name"));
        for (String t : List.of("WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT",
                "WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1")) {
            bodies.put(t, ROWS);
        }
        bodies.put("TRANSACTION_PAYLOAD_EVENT", List.of("events"));
        bodies.put("*", List.of());
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("header", List.of("position", "event_size", "next_position", "type_code", "server_id",
            "timestamp", "flags.value"));
        c.put("bodies", bodies);
        c.put("every_event", true);
        c.put("partial_events", true);
        c.put("row_values", ROW_VALUE_TYPES.stream().map(t -> "MYSQL_TYPE_" + t).toList());
        return c;
    }
}
