package conformance;

import java.util.Map;
import java.util.Properties;

/** open-replicator's adapter: the shared Protocol (jvm-shared/) over OpenReplicator (stream) or
 * FileBasedBinlogParser (file). Argument: the transport, "stream" or "file". */
public final class Main {
    private Main() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        boolean stream = args.length > 0 && args[0].equals("stream");
        Properties p = Protocol.adapterProperties();
        Protocol.serve(p.getProperty("adapter.name"), p.getProperty("library.version"), stream, Capabilities.json(), stream
            ? request -> StreamTestee.parse((Map<String, Object>) request.get("stream"))
            : request -> FileTestee.parse((String) request.get("path")));
    }
}
