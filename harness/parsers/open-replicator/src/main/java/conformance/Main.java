package conformance;

import java.util.Map;
import java.util.Properties;

/** open-replicator's adapter: the shared Protocol (jvm-shared/) over OpenReplicator (stream) or
 * FileBasedBinlogParser (file). Argument: the transport, "stream" or "file". */
public final class Main {
    private Main() {}

    /** Why open-replicator 1.6.0 runs in position mode only (its public API, OpenReplicator). */
    static final Map<String, String> MODES_UNSUPPORTED = Map.of(
        "gtid", "OpenReplicator starts at setBinlogFileName/setBinlogPosition only: it sends COM_BINLOG_DUMP, "
            + "never COM_BINLOG_DUMP_GTID nor @slave_connect_state",
        "current", "OpenReplicator has no way to find the current position: a file name and position must be set",
        "heartbeats", "setHeartbeatPeriod sets @master_heartbeat_period, but the library has no heartbeat event "
            + "class: its parser drops heartbeats, so its user never receives one");

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        boolean stream = args.length > 0 && args[0].equals("stream");
        Properties p = Protocol.adapterProperties();
        Protocol.serve(p.getProperty("adapter.name"), p.getProperty("library.version"), stream, Capabilities.json(),
            java.util.List.of("position"), MODES_UNSUPPORTED, stream
            ? request -> StreamTestee.parse((Map<String, Object>) request.get("stream"))
            : request -> FileTestee.parse((String) request.get("path")));
    }
}
