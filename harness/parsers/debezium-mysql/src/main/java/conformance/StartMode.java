package conformance;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/** How a request starts the connector in each stream mode it runs (docs/plugin-contract.md,
 * "Stream modes"), as a Debezium user starts it: the offset it would have stored (SeededOffsets;
 * none: it has never run) and the snapshot mode. Either way the schema is read from the primary
 * (SHOW CREATE TABLE), no table data.
 *
 * - position: the case's file and position (and, for the MariaDB connector, the GTID position
 *   there: StartGtids), `recovery`; gtid.ignore.on.recovery makes the MySQL connector dump by
 *   file and position also where the server has GTIDs (an offset without GTIDs otherwise makes it
 *   dump by an empty GTID set, which its binlog client turns into a NullPointerException:
 *   docs/findings/debezium-mysql.md, D3);
 * - gtid: the case's file and position with the request's gtid_set as `gtids`, `recovery`: the
 *   connector resumes from its stored GTIDs (BinlogStreamingChangeEventSource: the MySQL connector
 *   where the server says gtid_mode ON, merged with the server's sets by filterGtidSet; the
 *   MariaDB connector always). An empty set is stored as none, as BinlogOffsetContext's
 *   setCompletedGtidSet does;
 * - current: nothing stored and `no_data`: the snapshot asks the server where its binlog is (SHOW
 *   BINARY LOG STATUS / SHOW MASTER STATUS, with Executed_Gtid_Set, or MariaDB's gtid_binlog_pos)
 *   and the connector streams from there. */
enum StartMode {
    POSITION("recovery") {
        @Override
        Map<String, Object> offset(Map<String, Object> source) throws SQLException {
            return at(source, StartGtids.of(source));
        }

        @Override
        void configure(Properties p) {
            super.configure(p);
            p.setProperty("gtid.ignore.on.recovery", "true");
        }
    },
    GTID("recovery") {
        @Override
        Map<String, Object> offset(Map<String, Object> source) {
            return at(source, (String) source.get("gtid_set"));
        }
    },
    CURRENT("no_data") {
        @Override
        Map<String, Object> offset(Map<String, Object> source) {
            return null;
        }
    };

    /** The stream mode Debezium does not run, and why (its documentation). */
    static final Map<String, String> UNSUPPORTED = Map.of("heartbeats",
        "Debezium's binlog client asks the server for heartbeats (every 0.8 connect.keep.alive.interval.ms) and the "
        + "connector consumes them: they only close the windows of a read-only incremental snapshot (\"the server's "
        + "heartbeats against low and high watermarks\"); nothing reaches the application for one (heartbeat.interval.ms "
        + "is Debezium's own heartbeat message to a Kafka topic, on its own timer)");

    private final String snapshotMode;

    StartMode(String snapshotMode) {
        this.snapshotMode = snapshotMode;
    }

    /** The request's mode ("mode"; position where it gives none). */
    static StartMode of(Map<String, Object> source) {
        Object mode = source.get("mode");
        return mode == null ? POSITION : valueOf(((String) mode).toUpperCase(Locale.ROOT));
    }

    /** The modes' names, as the hello lists them. */
    static List<String> names() {
        return Arrays.stream(values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList();
    }

    /** The offset Debezium would have stored, or null: none. */
    abstract Map<String, Object> offset(Map<String, Object> source) throws SQLException;

    void configure(Properties p) {
        p.setProperty("snapshot.mode", snapshotMode);
    }

    /** The case's file and position, with `gtids` unless there are none. */
    private static Map<String, Object> at(Map<String, Object> source, String gtids) {
        Map<String, Object> offset = new HashMap<>(Map.of(
            "file", source.get("file"), "pos", StreamRequest.number(source, "start_position")));
        if (gtids != null && !gtids.isBlank()) offset.put("gtids", gtids);
        return offset;
    }
}
