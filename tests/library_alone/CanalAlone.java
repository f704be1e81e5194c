// Canal 1.1.7 alone: no adapter, no harness primary. Run with the JDK's single-file launcher on
// the jars the canal folder builds (tests/test_canal_live.py):
//
//   java -cp '<build>/lib/*' CanalAlone.java file PATH
//   java -cp '<build>/lib/*' CanalAlone.java stream HOST PORT USER PASSWORD FILE END
//   java -cp '<build>/lib/*' CanalAlone.java local DIR FILE
//   java -cp '<build>/lib/*' CanalAlone.java gtid HOST PORT USER PASSWORD GTID_SET END
//
// file: FileLogFetcher + LogDecoder(UNKNOWN_EVENT, ENUM_END_EVENT) + LogContext, the loop of
// Canal's LocalBinLogConnection.dump. stream: MysqlConnection built as MysqlEventParser builds it,
// dump(FILE, 4, SinkFunction), stopped once an event ends at END. local: Canal's own
// LocalBinLogConnection(DIR, needWait=false).dump(FILE, 4, SinkFunction), every event it sinks.
// gtid: the stream's connection, dump(GTIDSet, SinkFunction) from GTID_SET (MariaGTIDSet on
// MariaDB, MysqlGTIDSet on MySQL, as MysqlEventParser chooses by isMariaDB). One line per event: its class,
// type code and log_pos, and for a rows event its rows as LogEventConvert reads them without a
// TableMeta (RowsLogBuffer with UTF-8; String.valueOf of each value, hex for byte[]). The last
// line is {"end": "ok"} or {"error": "<class>: <message>"}.
import com.alibaba.otter.canal.parse.inbound.SinkFunction;
import com.alibaba.otter.canal.parse.inbound.mysql.LocalBinLogConnection;
import com.alibaba.otter.canal.parse.inbound.mysql.MysqlConnection;
import com.taobao.tddl.dbsync.binlog.FileLogFetcher;
import com.taobao.tddl.dbsync.binlog.LogContext;
import com.taobao.tddl.dbsync.binlog.LogDecoder;
import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.LogPosition;
import com.taobao.tddl.dbsync.binlog.event.RowsLogBuffer;
import com.taobao.tddl.dbsync.binlog.event.RowsLogEvent;
import com.taobao.tddl.dbsync.binlog.event.TableMapLogEvent;

import java.io.File;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

public class CanalAlone {
    // stdout carries the lines; whatever the library logs (logback's console) goes to stderr
    static final java.io.PrintStream OUT = new java.io.PrintStream(
        new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);

    public static void main(String[] args) {
        System.setOut(System.err);
        try {
            if (args[0].equals("file")) file(args[1]);
            else if (args[0].equals("local")) local(args[1], args[2]);
            else if (args[0].equals("gtid")) gtid(args[1], Integer.parseInt(args[2]), args[3], args[4], args[5], Long.parseLong(args[6]));
            else stream(args[1], Integer.parseInt(args[2]), args[3], args[4], args[5], Long.parseLong(args[6]));
            OUT.println("{\"end\": \"ok\"}");
        } catch (Exception e) {
            OUT.println("{\"error\": " + quote(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}");
        }
        System.exit(0);
    }

    static void file(String path) throws Exception {
        try (FileLogFetcher fetcher = new FileLogFetcher(16 * 1024)) {
            LogDecoder decoder = new LogDecoder(LogEvent.UNKNOWN_EVENT, LogEvent.ENUM_END_EVENT);
            LogContext context = new LogContext();
            fetcher.open(new File(path), 4L);
            context.setLogPosition(new LogPosition(new File(path).getName(), 4L));
            while (fetcher.fetch()) {
                LogEvent event = decoder.decode(fetcher, context);
                if (event == null) continue;
                print(event);
            }
        }
    }

    static void local(String dir, String file) throws Exception {
        LocalBinLogConnection c = new LocalBinLogConnection(dir, false);
        c.connect();
        try {
            SinkFunction<LogEvent> sink = event -> {
                print(event);
                return true;
            };
            c.dump(file, 4L, sink);
        } finally {
            c.disconnect();
        }
    }

    static MysqlConnection connection(String host, int port, String user, String password) throws Exception {
        MysqlConnection c = new MysqlConnection(new InetSocketAddress(host, port), user, password, (byte) 33, null);
        c.getConnector().setReceiveBufferSize(64 * 1024);
        c.getConnector().setSendBufferSize(64 * 1024);
        c.getConnector().setSoTimeout(30 * 1000);
        c.setCharset(StandardCharsets.UTF_8);
        c.setSlaveId(4242);
        c.connect();
        return c;
    }

    static SinkFunction<LogEvent> untilEnd(long end) {
        return event -> {
            print(event);
            return event.getHeader().getLogPos() < end;
        };
    }

    static void stream(String host, int port, String user, String password, String file, long end) throws Exception {
        MysqlConnection c = connection(host, port, user, password);
        try {
            c.dump(file, 4L, untilEnd(end));
        } finally {
            c.disconnect();
        }
    }

    static void gtid(String host, int port, String user, String password, String set, long end) throws Exception {
        MysqlConnection c = connection(host, port, user, password);
        try {
            c.dump(c.isMariaDB() ? com.alibaba.otter.canal.parse.driver.mysql.packets.MariaGTIDSet.parse(set)
                : com.alibaba.otter.canal.parse.driver.mysql.packets.MysqlGTIDSet.parse(set), untilEnd(end));
        } finally {
            c.disconnect();
        }
    }

    static void print(LogEvent event) {
        StringBuilder b = new StringBuilder("{\"class\": ").append(quote(event.getClass().getSimpleName()))
            .append(", \"type\": ").append(event.getHeader().getType())
            .append(", \"log_pos\": ").append(event.getHeader().getLogPos());
        if (event instanceof RowsLogEvent) b.append(", \"rows\": ").append(rows((RowsLogEvent) event));
        OUT.println(b.append('}'));
    }

    /** LogEventConvert.parseRowsEvent's reading: the before image, then (updates) the after image. */
    static String rows(RowsLogEvent event) {
        TableMapLogEvent table = event.getTable();
        int type = event.getHeader().getType();
        boolean update = type == LogEvent.UPDATE_ROWS_EVENT || type == LogEvent.UPDATE_ROWS_EVENT_V1
            || type == LogEvent.PARTIAL_UPDATE_ROWS_EVENT;
        RowsLogBuffer buffer = event.getRowsBuf(StandardCharsets.UTF_8);
        List<String> images = new ArrayList<>();
        while (buffer.nextOneRow(event.getColumns(), false)) {
            images.add(image(buffer, table, event.getColumns()));
            if (update && buffer.nextOneRow(event.getChangeColumns(), true)) {
                images.add(image(buffer, table, event.getChangeColumns()));
            }
        }
        return "[" + String.join(", ", images) + "]";
    }

    static String image(RowsLogBuffer buffer, TableMapLogEvent table, BitSet present) {
        List<String> values = new ArrayList<>();
        TableMapLogEvent.ColumnInfo[] info = table.getColumnInfo();
        for (int i = 0; i < table.getColumnCnt(); i++) {
            if (!present.get(i)) continue;
            Serializable v = buffer.nextValue(info[i].name, i, info[i].type, info[i].meta, false);
            values.add(buffer.isNull() || v == null ? "null" : quote(v instanceof byte[] ? hex((byte[]) v) : String.valueOf(v)));
        }
        return "[" + String.join(", ", values) + "]";
    }

    static String hex(byte[] bytes) {
        StringBuilder h = new StringBuilder("0x");
        for (byte x : bytes) h.append(String.format("%02x", x & 0xFF));
        return h.toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
