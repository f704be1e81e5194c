package conformance;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

/** BinaryLogClient against the harness's primary, configured as Debezium and Maxwell run it
 * (docs/findings.md): a replica server id of its own, file/position start, blocking dump, SSL
 * off (loopback), no keep-alive thread (it would reconnect when the range is done), MariaDB's
 * Annotate_rows asked for, the
 * Library.deserializer. One client per request: it stops once it has reported the event that
 * ends at end_position of end_file, and is disconnected before the reply. */
final class StreamTestee implements BinaryLogClient.EventListener, BinaryLogClient.LifecycleListener {
    private static final int LOG_EVENT_ARTIFICIAL_F = 0x20;
    /** The stream modes (docs/plugin-contract.md): BinaryLogClient takes a GTID set (setGtidSet:
     * COM_BINLOG_DUMP_GTID, or MariaDB's @slave_connect_state), finds the current position itself
     * when no file name is set (SHOW BINARY LOG STATUS / SHOW MASTER STATUS), and asks for
     * heartbeats (setHeartbeatInterval). */
    static final List<String> MODES = List.of("position", "gtid", "current", "heartbeats");

    private final Map<String, Object> source;
    private final Canonical canonical = new Canonical();
    private final List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
    private final CountDownLatch done = new CountDownLatch(1);
    private String file;
    private long end;            // where the last reported event ended
    private Exception failure;
    private Error crash;         // thrown on the reader thread: rethrown, the Protocol's crash path
    private boolean finished;    // the end was reported, or the request is over: later events are not
    private final String mode;

    private StreamTestee(Map<String, Object> source) {
        this.source = source;
        this.file = (String) source.get("file");
        this.end = StreamRequest.number(source, "start_position");
        this.mode = source.get("mode") == null ? "position" : (String) source.get("mode");
    }

    static List<Map<String, Object>> parse(Map<String, Object> source) throws Rejection, InterruptedException {
        return new StreamTestee(source).run();
    }

    private List<Map<String, Object>> run() throws Rejection, InterruptedException {
        BinaryLogClient client = new BinaryLogClient((String) source.get("host"), (int) StreamRequest.number(source, "port"),
            (String) source.get("user"), (String) source.get("password"));
        client.setServerId(ThreadLocalRandom.current().nextLong(0x10000, 0x7FFFFFFF));
        if (!mode.equals("current")) { // current: no file name, the client asks the primary where it is
            client.setBinlogFilename(file);
            client.setBinlogPosition(end);
        }
        if (mode.equals("gtid")) client.setGtidSet((String) source.get("gtid_set"));
        if (mode.equals("heartbeats")) {
            client.setHeartbeatInterval((long) (((Number) source.get("heartbeat_period")).doubleValue() * 1000));
        }
        client.setSSLMode(SSLMode.DISABLED);
        client.setKeepAlive(false);
        client.setUseSendAnnotateRowsEvent(true); // Maxwell always, Debezium's MariaDB connector with include.query
        client.setBlocking(StreamRequest.number(source, "end_position") != 0); // an unknown end: let the primary end the dump
        client.setEventDeserializer(Library.deserializer());
        client.registerEventListener(this);
        client.registerLifecycleListener(this);
        Thread reader = new Thread(() -> {
            try {
                client.connect();
            } catch (Exception e) {
                fail(e);
            } catch (Error e) { // the library died (seen: NoClassDefFoundError for zstd-jni): a crash, not a clean end
                synchronized (this) {
                    crash = e;
                }
            } finally {
                done.countDown();
            }
        }, "binlog-client");
        reader.setDaemon(true);
        reader.start();
        done.await();
        synchronized (this) {
            finished = true;
        }
        try {
            client.disconnect();
        } catch (Exception e) {
            System.err.println("disconnect: " + e);
        }
        reader.join(10_000);
        if (reader.isAlive()) System.err.println("the client's thread is still alive after disconnect()");
        synchronized (this) {
            if (crash != null) throw crash;
            if (failure != null) throw new Rejection(failure, end, new ArrayList<>(events));
            return new ArrayList<>(events);
        }
    }

    @Override
    public synchronized void onEvent(Event event) {
        if (finished) return;
        EventHeaderV4 h = event.getHeader();
        EventType type = h.getEventType();
        if (mode.equals("heartbeats") && (type == EventType.HEARTBEAT || type.name().equals("HEARTBEAT_V2"))) {
            events.add(heartbeat(h));
            return;
        }
        boolean resent = (type == EventType.ROTATE || type == EventType.FORMAT_DESCRIPTION) && h.getNextPosition() == 0;
        if ((h.getFlags() & LOG_EVENT_ARTIFICIAL_F) != 0 || resent || type == EventType.HEARTBEAT) return;
        long position = h.getNextPosition() != 0 ? h.getNextPosition() - h.getEventLength() : end;
        Map<String, Object> e = canonical.event(position, event);
        if (h.getNextPosition() == 0) e.put("_undetermined", List.of("position"));
        events.add(e);
        end = position + h.getEventLength();
        if (StreamRequest.reachedEnd(source, file, end)) {
            finished = true;
            done.countDown();
        } else if (type == EventType.ROTATE && event.getData() != null) {
            file = ((RotateEventData) event.getData()).getBinlogFilename();
        }
    }

    /** A heartbeat as the library delivers it: its EventType and header (it decodes no body). */
    private static Map<String, Object> heartbeat(EventHeaderV4 h) {
        Map<String, Object> e = new java.util.LinkedHashMap<>();
        e.put("type", h.getEventType() == EventType.HEARTBEAT ? "HEARTBEAT_LOG_EVENT" : "HEARTBEAT_LOG_EVENT_V2");
        e.put("library_type", "EventType." + h.getEventType().name());
        e.put("event_size", h.getEventLength());
        e.put("next_position", h.getNextPosition());
        e.put("type_code", EventTypes.code(h.getEventType()));
        e.put("server_id", h.getServerId());
        e.put("timestamp", h.getTimestamp() / 1000);
        e.put("flags", Map.of("value", h.getFlags()));
        return e;
    }

    /** The library's error path (its LifecycleListener): the first failure ends the request,
     * reported with the events before it; in blocking mode the client would go on past it. */
    private synchronized void fail(Exception e) {
        if (finished) return;
        failure = e;
        finished = true;
        done.countDown();
    }

    @Override public void onConnect(BinaryLogClient client) {}
    @Override public void onCommunicationFailure(BinaryLogClient client, Exception e) { fail(e); }
    @Override public void onEventDeserializationFailure(BinaryLogClient client, Exception e) { fail(e); }
    @Override public void onDisconnect(BinaryLogClient client) { done.countDown(); }
}
