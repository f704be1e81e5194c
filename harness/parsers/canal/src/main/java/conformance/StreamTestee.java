package conformance;

import com.alibaba.otter.canal.parse.inbound.SinkFunction;
import com.alibaba.otter.canal.parse.inbound.mysql.MysqlConnection;
import com.alibaba.otter.canal.parse.driver.mysql.packets.MariaGTIDSet;
import com.alibaba.otter.canal.parse.driver.mysql.packets.MysqlGTIDSet;
import com.taobao.tddl.dbsync.binlog.LogContext;
import com.taobao.tddl.dbsync.binlog.LogDecoder;
import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.LogPosition;
import com.taobao.tddl.dbsync.binlog.event.LogHeader;
import com.taobao.tddl.dbsync.binlog.event.RotateLogEvent;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** MysqlConnection against the harness's primary, built as Canal's MysqlEventParser builds its
 * connection (buildMysqlConnection): charset number 33 (utf8) and connectionCharset UTF-8, 64 KiB
 * socket buffers, a 30 s socket timeout, a slave id of its own; then dump(file, position,
 * SinkFunction), which sets the session as Canal does (wait/net timeouts, `set names 'binary'`,
 * `set @master_binlog_checksum= @@global.binlog_checksum`, `@slave_uuid`,
 * `@mariadb_slave_capability`, a 15 s heartbeat period), reads the checksum in force, registers
 * as a replica and dumps (always blocking). The sink stops the dump (returns false) once the event
 * that ends at end_position of end_file has been reported, or, with no end given, at the first
 * heartbeat (the primary has nothing more to send). One connection per request, disconnected
 * before the reply. */
final class StreamTestee implements SinkFunction<LogEvent> {
    private static final int LOG_EVENT_ARTIFICIAL_F = 0x20;
    /** The stream modes (docs/plugin-contract.md): MysqlConnection.dump(GTIDSet, sink) takes a
     * MysqlGTIDSet (COM_BINLOG_DUMP_GTID) or a MariaGTIDSet (@slave_connect_state), as
     * MysqlEventParser passes them with canal.instance.gtidon; the dump always asks for heartbeats
     * (a 15 s period), each reported in heartbeats mode as Canal's HeartbeatLogEvent. */
    static final List<String> MODES = List.of("position", "gtid", "heartbeats");
    static final Map<String, String> MODES_UNSUPPORTED = Map.of("current",
        "MysqlConnection.dump takes a file and position or a GTID set; the current position is found by "
        + "MysqlEventParser.findEndPosition (SHOW MASTER STATUS) when no journal name is configured, a "
        + "parser this adapter does not run");
    private static final int BUFFER_SIZE = 64 * 1024;
    private static final int SO_TIMEOUT_MILLIS = 30 * 1000;

    private final Map<String, Object> source;
    private final List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
    // Canal's SinkFunction dump hands a Transaction_payload over undecoded, and its own decoder
    // and context are private to it: the payload is decoded with LogDecoder.processIterateDecode,
    // as its LocalBinLogConnection and MysqlMultiStageCoprocessor do, with a context of our own
    // (the Format_description in force, the position)
    private final LogDecoder payloadDecoder = new LogDecoder(LogEvent.UNKNOWN_EVENT, LogEvent.ENUM_END_EVENT);
    private final LogContext payloadContext = new LogContext();
    private String file;
    private long end;            // where the last reported event ended
    private Exception failure;   // from our sink: dump() would only see it as its own
    private final String mode;

    private StreamTestee(Map<String, Object> source) {
        this.source = source;
        this.file = (String) source.get("file");
        this.end = StreamRequest.number(source, "start_position");
        payloadContext.setLogPosition(new LogPosition(file, end));
        this.mode = source.get("mode") == null ? "position" : (String) source.get("mode");
    }

    static List<Map<String, Object>> parse(Map<String, Object> source) throws Exception {
        return new StreamTestee(source).run();
    }

    private List<Map<String, Object>> run() throws Exception {
        MysqlConnection c = new MysqlConnection(
            new InetSocketAddress((String) source.get("host"), (int) StreamRequest.number(source, "port")),
            (String) source.get("user"), (String) source.get("password"), (byte) 33, null);
        c.getConnector().setReceiveBufferSize(BUFFER_SIZE);
        c.getConnector().setSendBufferSize(BUFFER_SIZE);
        c.getConnector().setSoTimeout(SO_TIMEOUT_MILLIS);
        c.setCharset(StandardCharsets.UTF_8);
        c.setSlaveId(ThreadLocalRandom.current().nextLong(0x10000, 0x7FFFFFFF));
        try {
            c.connect();
            if (mode.equals("gtid")) {
                String set = (String) source.get("gtid_set");
                c.dump(c.isMariaDB() ? MariaGTIDSet.parse(set) : MysqlGTIDSet.parse(set), this);
            } else {
                c.dump(file, end, this);
            }
        } catch (Exception e) {
            throw Library.reject(e, end, new ArrayList<>(events));
        } finally {
            try {
                c.disconnect();
            } catch (Exception e) {
                System.err.println("disconnect: " + e);
            }
        }
        if (failure != null) throw Library.reject(failure, end, events);
        return events;
    }

    /** A heartbeat as Canal delivers it: HeartbeatLogEvent's log ident, the header's log_pos. */
    private static Map<String, Object> heartbeat(LogEvent event) {
        LogHeader h = event.getHeader();
        Map<String, Object> e = new java.util.LinkedHashMap<>();
        boolean v1 = event instanceof com.taobao.tddl.dbsync.binlog.event.HeartbeatLogEvent;
        e.put("type", h.getType() == LogEvent.HEARTBEAT_LOG_EVENT ? "HEARTBEAT_LOG_EVENT" : "HEARTBEAT_LOG_EVENT_V2");
        e.put("library_type", event.getClass().getSimpleName());
        e.put("event_size", h.getEventLen());
        e.put("next_position", h.getLogPos());
        e.put("type_code", h.getType());
        if (v1) e.put("body", Map.of("log_ident", ((com.taobao.tddl.dbsync.binlog.event.HeartbeatLogEvent) event).getLogIdent()));
        return e;
    }

    @Override
    public boolean sink(LogEvent event) {
        LogHeader h = event.getHeader();
        int type = h.getType();
        if (type == LogEvent.HEARTBEAT_LOG_EVENT || type == LogEvent.HEARTBEAT_LOG_EVENT_V2) {
            if (mode.equals("heartbeats")) events.add(heartbeat(event));
            return StreamRequest.number(source, "end_position") != 0;
        }
        boolean resent = (type == LogEvent.ROTATE_EVENT || type == LogEvent.FORMAT_DESCRIPTION_EVENT) && h.getLogPos() == 0;
        if ((h.getFlags() & LOG_EVENT_ARTIFICIAL_F) != 0 || resent) return true;
        long position = h.getLogPos() != 0 ? h.getLogPos() - h.getEventLen() : end;
        try {
            if (type == LogEvent.FORMAT_DESCRIPTION_EVENT) payloadContext.setFormatDescription(
                (com.taobao.tddl.dbsync.binlog.event.FormatDescriptionLogEvent) event);
            Map<String, Object> e = Library.event(position, event, payloadDecoder, payloadContext);
            if (h.getLogPos() == 0) e.put("_undetermined", List.of("position"));
            events.add(e);
        } catch (Exception e) {
            failure = e;
            return false;
        }
        end = position + h.getEventLen();
        if (StreamRequest.reachedEnd(source, file, end)) return false;
        if (event instanceof RotateLogEvent) file = ((RotateLogEvent) event).getFilename();
        return true;
    }
}
