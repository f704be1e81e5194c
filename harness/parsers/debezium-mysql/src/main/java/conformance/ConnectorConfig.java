package conformance;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The embedded engine's configuration for one request (docs/findings.md, "How each parser is
 * built", says why each value converter setting is what it is). */
final class ConnectorConfig {
    static final String ENGINE_NAME = "conformance";

    private ConnectorConfig() {}

    static Properties of(Map<String, Object> source, String prefix, Path history, StartMode start) {
        Properties p = new Properties();
        p.setProperty("name", ENGINE_NAME);
        p.setProperty("connector.class", Connector.CURRENT.connectorClass());
        p.setProperty("topic.prefix", prefix);
        p.setProperty("database.hostname", (String) source.get("host"));
        p.setProperty("database.port", Long.toString(StreamRequest.number(source, "port")));
        p.setProperty("database.user", (String) source.get("user"));
        p.setProperty("database.password", (String) source.get("password"));
        p.setProperty("database.server.id", Integer.toString(EngineRun.serverId()));
        p.setProperty("database.ssl.mode", Connector.CURRENT.sslDisabled());
        p.setProperty("driver.allowPublicKeyRetrieval", "true");
        // offsets in memory, seeded as the stream mode says (StartMode); schema history in a temp file
        p.setProperty("offset.storage", SeededOffsets.class.getName());
        p.setProperty("offset.flush.interval.ms", "60000");
        p.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
        p.setProperty("schema.history.internal.file.filename", history.toString());
        // no data snapshot: the schema is read (SHOW CREATE TABLE), then the binlog streamed from
        // the offset (snapshot.mode and, in position mode, gtid.ignore.on.recovery: StartMode)
        start.configure(p);
        p.setProperty("snapshot.locking.mode", "none");
        // every table's rows, those of the system schemas (mysql, sys, ...) too: by default
        // (table.ignore.builtin=true) Debezium filters them, and its streaming metrics count a
        // filtered rows event as a create/update/delete it never hands over (docs/findings.md)
        p.setProperty("table.ignore.builtin", "false");
        // change records only, and at once
        p.setProperty("include.schema.changes", "false");
        p.setProperty("tombstones.on.delete", "false");
        p.setProperty("poll.interval.ms", "1");
        p.setProperty("max.batch.size", "2048");
        // value conversions chosen to be exact (docs/findings.md)
        p.setProperty("decimal.handling.mode", "string");
        p.setProperty("time.precision.mode", "adaptive_time_microseconds");
        p.setProperty("binary.handling.mode", "bytes");
        p.setProperty("bigint.unsigned.handling.mode", "precise");
        p.setProperty("column.propagate.source.type", ".*");
        if (!new StreamRange(source).bounded()) {
            // no end given: the first heartbeat after the last event is the end (EngineRun). The
            // binlog client asks for heartbeats every 0.8 keep-alive intervals (default 60 s: 48 s)
            p.setProperty("connect.keep.alive.interval.ms", Long.toString(EngineRun.UNBOUNDED_HEARTBEAT_MILLIS * 5 / 4));
        }
        overrides(p, System.getenv(OVERRIDES));
        return p;
    }

    /** DEBEZIUM_CONFORMANCE_OVERRIDES="key=value;key=value": settings that replace the ones above,
     * for a live test that shows what a default does (tests/test_debezium_live.py); never set by
     * the harness. */
    static final String OVERRIDES = "DEBEZIUM_CONFORMANCE_OVERRIDES";

    private static void overrides(Properties p, String spec) {
        if (spec == null || spec.isBlank()) return;
        for (String pair : spec.split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0) p.setProperty(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
    }
}
