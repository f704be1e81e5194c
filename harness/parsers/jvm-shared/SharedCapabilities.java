package conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The capability declarations (docs/plugin-contract.md) every JVM adapter builds its own from:
 * the v4 header fields, the classic event bodies both Java libraries decode field for field, the
 * six rows event types, and the shape of the whole object. */
final class SharedCapabilities {
    static final List<String> HEADER = List.of("position", "event_size", "next_position", "type_code", "type",
        "server_id", "timestamp", "flags.value");
    static final List<String> ROWS = List.of("table_id", "rows");

    private SharedCapabilities() {}

    /** Query, Rotate, Xid, Format_description, Intvar and Table_map, with their fields. */
    static Map<String, Object> classicBodies() {
        Map<String, Object> bodies = new LinkedHashMap<>();
        bodies.put("QUERY_EVENT", List.of("thread_id", "query_exec_time", "error_code", "db", "query"));
        bodies.put("ROTATE_EVENT", List.of("pos", "new_log_ident"));
        bodies.put("XID_EVENT", List.of("xid"));
        bodies.put("FORMAT_DESCRIPTION_EVENT", List.of("binlog_version", "server_version", "common_header_len"));
        bodies.put("INTVAR_EVENT", List.of("type", "val"));
        bodies.put("TABLE_MAP_EVENT", List.of("table_id", "schema", "table", "column_count", "column_types"));
        return bodies;
    }

    /** Every column type a library that decodes them all reports (docs/plugin-contract.md). */
    static final List<String> ALL_ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG",
        "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "DATE", "TIME", "TIME2", "DATETIME", "DATETIME2",
        "TIMESTAMP", "TIMESTAMP2", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET", "JSON", "GEOMETRY",
        "VECTOR");

    /** The events newer than the classic ones: MySQL's Rows_query and Gtid, MariaDB's
     * Annotate_rows, Gtid and Binlog_checkpoint, with the fields both libraries give. */
    static void putNewerBodies(Map<String, Object> bodies) {
        bodies.put("ROWS_QUERY_LOG_EVENT", List.of("rows_query"));
        bodies.put("GTID_LOG_EVENT", List.of("gtid", "last_committed", "sequence_number"));
        bodies.put("ANNOTATE_ROWS_EVENT", List.of("query"));
        bodies.put("GTID_EVENT", List.of("seq_no", "domain_id"));
        bodies.put("BINLOG_CHECKPOINT_EVENT", List.of("binlog_file_name"));
    }

    /** Every rows event type of the canonical model (oracle.events.ROWS_TYPES), each with its table
     * id and rows: what a user of a binlog library relies on. A type the library cannot deliver
     * rows for (no class, no deserializer) is still claimed: its lost rows are a failed check,
     * never excused (docs/plugin-contract.md). */
    static final List<String> ROWS_TYPES = List.of(
        "PRE_GA_WRITE_ROWS_EVENT", "PRE_GA_UPDATE_ROWS_EVENT", "PRE_GA_DELETE_ROWS_EVENT",
        "WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1",
        "WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT",
        "WRITE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT_V1",
        "WRITE_ROWS_COMPRESSED_EVENT", "UPDATE_ROWS_COMPRESSED_EVENT", "DELETE_ROWS_COMPRESSED_EVENT");

    static void putRows(Map<String, Object> bodies) {
        for (String t : ROWS_TYPES) bodies.put(t, ROWS);
    }

    static Map<String, Object> of(Map<String, Object> bodies, boolean everyEvent, List<String> rowValueTypes) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("header", HEADER);
        c.put("bodies", bodies);
        c.put("every_event", everyEvent);
        c.put("partial_events", true);
        c.put("row_values", rowValueTypes.stream().map(t -> "MYSQL_TYPE_" + t).toList());
        return c;
    }
}
