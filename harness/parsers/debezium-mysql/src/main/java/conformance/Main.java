package conformance;

import java.util.Map;

/** Debezium's MySQL or MariaDB connector (Connector) as a stream testee: the shared Protocol (jvm-shared/), one embedded
 * engine per request (EngineRun), in the stream modes StartMode names. Argument: the transport, "stream" (Debezium
 * reads no files). */
public final class Main {
    private Main() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        // The binlog client logs through java.util.logging (to stderr): quiet, as slf4j-nop makes
        // Debezium's own logs; a failure reaches the reply and its stack trace the adapter's log.
        java.util.logging.LogManager.getLogManager().reset();
        Protocol.serve(Connector.CURRENT.name(), Connector.CURRENT.version(), true, Capabilities.json(),
            StartMode.names(), StartMode.UNSUPPORTED,
            request -> EngineRun.parse((Map<String, Object>) request.get("stream")));
    }
}
