package conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the adapter reports (docs/plugin-contract.md), and only that. open-replicator gives an
 * event only for the types it registers a parser for (Library.registerParsers); every other event
 * (MariaDB's, Previous_gtids, Rows_query, Transaction_payload, ...) is skipped without a trace,
 * so every_event is false. It checks CRC32 but does not expose the checksum. Row values: the
 * types whose values it decodes to something the canonical value can be read from without
 * guessing; temporals (java.sql.Timestamp/Date in the JVM's zone) and GEOMETRY (a JTS Geometry)
 * are not compared, JSON and the types newer than the library make it throw. */
final class Capabilities {
    private static final List<String> ROWS = List.of("table_id", "rows");
    static final List<String> ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG",
        "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET");

    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = new LinkedHashMap<>();
        bodies.put("QUERY_EVENT", List.of("thread_id", "query_exec_time", "error_code", "db", "query"));
        bodies.put("ROTATE_EVENT", List.of("pos", "new_log_ident"));
        bodies.put("XID_EVENT", List.of("xid"));
        bodies.put("FORMAT_DESCRIPTION_EVENT", List.of("binlog_version", "server_version", "common_header_len"));
        bodies.put("INTVAR_EVENT", List.of("type", "val"));
        bodies.put("TABLE_MAP_EVENT", List.of("table_id", "schema", "table", "column_count", "column_types"));
        bodies.put("GTID_LOG_EVENT", List.of("gtid"));
        for (String t : List.of("STOP_EVENT", "RAND_EVENT", "USER_VAR_EVENT", "INCIDENT_EVENT")) bodies.put(t, List.of());
        for (String t : List.of("WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT",
                "WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1")) {
            bodies.put(t, ROWS);
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("header", List.of("position", "event_size", "next_position", "type_code", "server_id",
            "timestamp", "flags.value"));
        c.put("bodies", bodies);
        c.put("every_event", false);
        c.put("partial_events", true);
        c.put("row_values", ROW_VALUE_TYPES.stream().map(t -> "MYSQL_TYPE_" + t).toList());
        return c;
    }
}
