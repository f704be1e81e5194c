// mysql-binlog-connector-java alone (either line: com.github.shyiko / com.zendesk, the same
// BinaryLogClient API): no adapter, no harness run. Run with the JDK's single-file launcher on the
// jars the parser's folder builds (tests/test_wire_fault_findings_alone.py):
//
//   java -cp '<build>/lib/*' MbcjAlone.java HOST PORT USER PASSWORD FILE END KEEPALIVE_MS SECONDS [HEARTBEAT_MS]
//
// BinaryLogClient as its README starts it: new BinaryLogClient(host, port, user, password),
// setBinlogFilename/Position, an EventListener and a LifecycleListener, connect(timeout); keep-alive
// as the library's default (on, every minute) for KEEPALIVE_MS -1, on at that interval for a
// positive one, off (setKeepAlive(false)) for 0; HEARTBEAT_MS > 0: setHeartbeatInterval (the
// primary is asked for heartbeats, and the keep-alive then judges the time since the last event
// instead of pinging). One JSON
// line per event ({"type", "next", "rows"}), per lifecycle call ({"lifecycle": "connect" |
// "communication-failure" | "deserialization-failure" | "disconnect", "error"?}); then {"end":
// "reached"} once an event ends at or past END, or {"end": "timeout"} after SECONDS.
import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

public class MbcjAlone {
    static final java.io.PrintStream OUT = System.out;

    static synchronized void line(String json) {
        OUT.println(json);
        OUT.flush();
    }

    static String quoted(Object o) {
        String s = String.valueOf(o).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
        return "\"" + s + "\"";
    }

    static int rows(EventData data) {
        if (data instanceof WriteRowsEventData) return ((WriteRowsEventData) data).getRows().size();
        if (data instanceof UpdateRowsEventData) return ((UpdateRowsEventData) data).getRows().size();
        if (data instanceof DeleteRowsEventData) return ((DeleteRowsEventData) data).getRows().size();
        return 0;
    }

    public static void main(String[] args) throws Exception {
        System.setOut(System.err); // whatever the library prints goes to stderr; OUT keeps the lines
        BinaryLogClient client = new BinaryLogClient(args[0], Integer.parseInt(args[1]), args[2], args[3]);
        long end = Long.parseLong(args[5]);
        long keepAlive = Long.parseLong(args[6]);
        client.setBinlogFilename(args[4]);
        client.setBinlogPosition(4);
        client.setServerId(0x10000 + (long) (Math.random() * 0x7FFF0000L));
        client.setSSLMode(SSLMode.DISABLED);
        if (keepAlive > 0) client.setKeepAliveInterval(keepAlive);
        else if (keepAlive == 0) client.setKeepAlive(false);
        if (args.length > 8) client.setHeartbeatInterval(Long.parseLong(args[8]));
        CountDownLatch reached = new CountDownLatch(1);
        client.registerEventListener(event -> {
            EventHeaderV4 h = event.getHeader();
            line("{\"type\": " + quoted(h.getEventType()) + ", \"next\": " + h.getNextPosition()
                 + ", \"rows\": " + rows(event.getData()) + "}");
            if (h.getNextPosition() >= end) reached.countDown();
        });
        client.registerLifecycleListener(new BinaryLogClient.LifecycleListener() {
            public void onConnect(BinaryLogClient c) { line("{\"lifecycle\": \"connect\"}"); }
            public void onCommunicationFailure(BinaryLogClient c, Exception e) {
                line("{\"lifecycle\": \"communication-failure\", \"error\": " + quoted(e) + "}");
            }
            public void onEventDeserializationFailure(BinaryLogClient c, Exception e) {
                line("{\"lifecycle\": \"deserialization-failure\", \"error\": " + quoted(e) + "}");
            }
            public void onDisconnect(BinaryLogClient c) { line("{\"lifecycle\": \"disconnect\"}"); }
        });
        client.connect(30_000);
        boolean done = reached.await(Long.parseLong(args[7]), TimeUnit.SECONDS);
        line(done ? "{\"end\": \"reached\"}" : "{\"end\": \"timeout\"}");
        client.disconnect();
        System.exit(0);
    }
}
