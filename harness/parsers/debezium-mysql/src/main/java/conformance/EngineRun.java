package conformance;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.debezium.text.MultipleParsingExceptions;
import io.debezium.text.ParsingException;
import io.debezium.embedded.Connect;
import org.apache.kafka.connect.source.SourceRecord;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** One request: a fresh embedded engine (ConnectorConfig), started as the request's stream mode
 * says (StartMode: at the case's first binlog position or GTID set, SeededOffsets, or where the
 * server says its binlog is), run until the stream is consumed, then closed.
 *
 * The end: Debezium never stops by itself (its binlog client dumps in blocking mode and
 * reconnects). Its streaming metrics (JMX, same JVM) give the binlog client's file and position,
 * which the client advances after Debezium's handler has taken the event (and queued its change
 * records), and the number of change records the streaming source produced. The range is consumed
 * when the client stands at end_file/end_position and the consumer has received as many records
 * as the source produced. */
final class EngineRun {
    private static final long POLL_MILLIS = 2;
    private static final long START_MILLIS = 60_000;
    /** How long the consumer may go without a new record while the client stands at the end and
     * the source has counted records the consumer lacks: then the request ends with what came,
     * as an error naming the shortfall, instead of the harness's 60 s timeout. The counters also
     * count a rows event Debezium filters (CommonEventMeter.onFilteredEvent(operation)): seen on
     * the external binlogs of tables in the `mysql` schema before ConnectorConfig set
     * table.ignore.builtin=false. Delivery takes one poll interval otherwise. */
    private static final long UNDELIVERED_MILLIS = 10_000;
    /** How long a request stays open once the range is consumed: a row Debezium fails on is
     * reported by its binlog client's listener to the error handler, which the engine's task
     * sees at its next poll, while the client reads on to the end; without this wait the outcome
     * of such a case depended on which came first (seen on gh-ost's mysql-bin.000066: the
     * failure, or the stream without the rows it failed on). */
    private static final long FAILURE_GRACE_MILLIS = 250;
    /** The server heartbeat period asked for where the request gives no end (ConnectorConfig). */
    static final long UNBOUNDED_HEARTBEAT_MILLIS = 2_000;
    private static final AtomicLong RUNS = new AtomicLong();

    private final Map<String, Object> source;
    private final String prefix = "c" + RUNS.incrementAndGet();
    private final StreamRange range;
    private final ChangeEvents events;
    private final AtomicLong received = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean completed;

    private EngineRun(Map<String, Object> source) {
        this.source = source;
        this.range = new StreamRange(source);
        this.events = new ChangeEvents(range);
    }

    static List<Map<String, Object>> parse(Map<String, Object> source) throws Exception {
        return new EngineRun(source).run();
    }

    private List<Map<String, Object>> run() throws Exception {
        Path dir = Files.createTempDirectory("debezium-conformance");
        try {
            return runIn(dir.resolve("schema-history.dat"));
        } finally {
            deleteTree(dir);
        }
    }

    private List<Map<String, Object>> runIn(Path history) throws Exception {
        StartMode start = StartMode.of(source);
        Map<String, Object> offset;
        try {
            offset = start.offset(source);
        } catch (java.sql.SQLException e) { // the server would not say: the request fails before Debezium starts
            throw new Rejection(e, StreamRequest.number(source, "start_position"), List.of());
        }
        SeededOffsets.seed(ConnectorConfig.ENGINE_NAME, Map.of("server", prefix), offset);
        DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(ConnectorConfig.of(source, prefix, history, start))
            .using(this::onCompletion)
            .notifying(this::onRecord)
            .build();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            executor.execute(engine);
            awaitEnd();
        } finally {
            close(engine);
            executor.shutdownNow();
        }
        List<Map<String, Object>> canonical = events.canonical(ColumnCharsets.read(history));
        Throwable f = failure.get();
        if (f == null) return canonical;
        f.printStackTrace(); // to stderr, the adapter's log: the reply carries the innermost cause only
        System.err.flush();
        throw new Rejection(rootCause(f), events.lastPosition(), canonical);
    }

    /** Closes the engine unless it already stopped (a failed engine shuts itself down, and
     * closing it again throws). */
    private void close(DebeziumEngine<?> engine) throws java.io.IOException {
        if (completed) return;
        try {
            engine.close();
        } catch (IllegalStateException alreadyStopped) {
            // it stopped between the check and the close
        }
    }

    private void onRecord(RecordChangeEvent<SourceRecord> change) {
        if (events.add(change.record())) received.incrementAndGet();
    }

    private void onCompletion(boolean success, String message, Throwable error) {
        if (!success) failure.compareAndSet(null, error != null ? error : new IllegalStateException(message));
        completed = true;
    }

    /** Until the client stood at (or past) the end with every change record delivered, or the
     * engine stopped. */
    private void awaitEnd() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName pattern = new ObjectName("debezium." + Connector.CURRENT.type()
            + ":type=connector-metrics,context=streaming,server=" + prefix + ",*");
        long deadline = System.currentTimeMillis() + START_MILLIS;
        long waitingSince = 0;
        long receivedThen = -1;
        while (!completed) {
            Set<ObjectName> names = server.queryNames(pattern, null);
            long now = System.currentTimeMillis();
            if (names.isEmpty()) {
                if (now > deadline) throw new IllegalStateException("the engine did not start streaming");
            } else {
                long missing;
                try {
                    missing = missing(server, names.iterator().next());
                } catch (javax.management.InstanceNotFoundException stopping) {
                    // the engine unregistered its metrics between the query and the read: it is
                    // stopping (a failure, seen on a DDL it could not parse); onCompletion follows
                    Thread.sleep(POLL_MILLIS);
                    continue;
                }
                if (missing == 0) {
                    awaitLateFailure();
                    return;
                }
                long got = received.get();
                if (missing < 0 || got != receivedThen) {
                    waitingSince = now;
                    receivedThen = got;
                } else if (now - waitingSince > UNDELIVERED_MILLIS) {
                    failure.compareAndSet(null, new IllegalStateException("the streaming source counted " + (got + missing)
                        + " change records by the end of the range; " + got + " reached the consumer in "
                        + UNDELIVERED_MILLIS / 1000 + " s (the counters include rows events Debezium filtered)"));
                    return;
                }
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** FAILURE_GRACE_MILLIS for the engine to report a failure the consumed range still holds. */
    private void awaitLateFailure() throws InterruptedException {
        long until = System.currentTimeMillis() + FAILURE_GRACE_MILLIS;
        while (!completed && failure.get() == null && System.currentTimeMillis() < until) Thread.sleep(POLL_MILLIS);
    }

    /** -1 until the binlog client stands at or past the end (it advances after Debezium's handler
     * queued the event's change records); then how many of the change records the streaming
     * source counted (its create, update and delete counters, one per record) the consumer still
     * lacks: 0 when it has them all. */
    private long missing(MBeanServer server, ObjectName n) throws Exception {
        if (!endReached(server, n)) return -1;
        long produced = 0;
        for (String counter : List.of("TotalNumberOfCreateEventsSeen", "TotalNumberOfUpdateEventsSeen", "TotalNumberOfDeleteEventsSeen")) {
            produced += (Long) server.getAttribute(n, counter);
        }
        return Math.max(0, produced - received.get());
    }

    /** The binlog client stands at or past the range's end; where the request gives none, the
     * primary has sent everything: a heartbeat came, which Debezium's source marks by setting
     * MilliSecondsBehindSource to 0 (any other event sets the event's age, -1 before the first;
     * the served binlogs are older than a second). */
    private boolean endReached(MBeanServer server, ObjectName n) throws Exception {
        if (!range.bounded()) return (Long) server.getAttribute(n, "MilliSecondsBehindSource") == 0;
        String file = (String) server.getAttribute(n, "BinlogFilename");
        long position = (Long) server.getAttribute(n, "BinlogPosition");
        return file != null && range.atOrPast(file, position);
    }

    /** The engine wraps what failed ("An exception occurred in the change event producer"): the
     * innermost cause says what it was, except under a DDL parse error, whose own message names
     * the statement (its cause is the grammar's exception, without a message). */
    private static Throwable rootCause(Throwable t) {
        while (true) {
            if (t instanceof MultipleParsingExceptions m && !m.getErrors().isEmpty()) return m.getErrors().iterator().next();
            if (t instanceof ParsingException) return t; // its DDL parser: the message names the statement
            if (t.getCause() == null || t.getCause() == t) return t;
            t = t.getCause();
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    static int serverId() {
        return ThreadLocalRandom.current().nextInt(0x10000, 0x7FFFFFFF);
    }
}
