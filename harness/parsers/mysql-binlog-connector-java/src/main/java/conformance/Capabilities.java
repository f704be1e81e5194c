package conformance;

import java.util.List;
import java.util.Map;

/** What the adapter reports (docs/plugin-contract.md), and only that: the header fields the
 * library keeps (no checksum: it strips CRC32 without checking it), the bodies Canonical maps,
 * and the column types whose values RowValues maps. */
final class Capabilities {
    static final List<String> ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG",
        "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "DATE", "TIME", "TIME2", "DATETIME", "DATETIME2",
        "TIMESTAMP", "TIMESTAMP2", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET", "JSON", "GEOMETRY",
        "VECTOR");

    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = SharedCapabilities.classicBodies();
        bodies.put("ROWS_QUERY_LOG_EVENT", List.of("rows_query"));
        bodies.put("GTID_LOG_EVENT", LibraryFeatures.GTID_LOGICAL_CLOCK
            ? List.of("gtid", "last_committed", "sequence_number") : List.of("gtid"));
        bodies.put("ANNOTATE_ROWS_EVENT", List.of("query"));
        bodies.put("GTID_EVENT", List.of("seq_no", "domain_id"));
        if (LibraryFeatures.BINLOG_CHECKPOINT != null) bodies.put("BINLOG_CHECKPOINT_EVENT", List.of("binlog_file_name"));
        SharedCapabilities.putRows(bodies);
        bodies.put("TRANSACTION_PAYLOAD_EVENT", List.of("events"));
        bodies.put("*", List.of());
        return SharedCapabilities.of(bodies, true, ROW_VALUE_TYPES);
    }
}
