package conformance;

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
    static final List<String> ROW_VALUE_TYPES = List.of("TINY", "SHORT", "INT24", "LONG", "LONGLONG",
        "YEAR", "FLOAT", "DOUBLE", "NEWDECIMAL", "BIT", "STRING", "VARCHAR", "VAR_STRING", "BLOB", "ENUM", "SET");

    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = SharedCapabilities.classicBodies();
        bodies.put("GTID_LOG_EVENT", List.of("gtid"));
        for (String t : List.of("STOP_EVENT", "RAND_EVENT", "USER_VAR_EVENT", "INCIDENT_EVENT")) bodies.put(t, List.of());
        SharedCapabilities.putRows(bodies);
        return SharedCapabilities.of(bodies, false, ROW_VALUE_TYPES);
    }
}
