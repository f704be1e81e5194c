package conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the adapter reports (docs/plugin-contract.md), and only that: Debezium gives change
 * records, one per row, with the position of the rows event they came from and nothing of the
 * binlog's other events or of the rows event's header. So: the position, and the rows of the
 * rows events (MariaDB's compressed ones included, which its binlog client inflates); every
 * other event is not reported (every_event false). A compressed transaction's rows are the
 * nested events of its Transaction_payload. Row values: every type ColumnValues maps
 * from Debezium's converted value back to the stored value without guessing. */
final class Capabilities {
    static final List<String> ROWS_EVENTS = SharedCapabilities.ROWS_TYPES;  // every one, partial updates too
    static final List<String> ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG", "YEAR",
        "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET",
        "DATE", "DATETIME2", "TIME2", "TIMESTAMP2", "JSON", "GEOMETRY");

    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = new LinkedHashMap<>();
        for (String t : ROWS_EVENTS) bodies.put(t, List.of("rows"));
        bodies.put("TRANSACTION_PAYLOAD_EVENT", List.of("events")); // its rows events (ChangeEvents)
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("header", List.of("position"));
        c.put("bodies", bodies);
        c.put("every_event", false);
        c.put("partial_events", true);
        c.put("row_values", ROW_VALUE_TYPES.stream().map(t -> "MYSQL_TYPE_" + t).toList());
        // Debezium's schema is what the primary answers to SHOW FULL TABLES / SHOW CREATE TABLE: a
        // case with a table no schema source describes cannot be served to it
        c.put("schema_lookups", true);
        return c;
    }
}
