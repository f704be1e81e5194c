package conformance;

import java.util.Map;
import java.util.Properties;

/** Canal's adapter: the shared Protocol (jvm-shared/) over MysqlConnection.dump (stream) or
 * FileLogFetcher + LogDecoder (file). Argument: the transport, "stream" or "file". Anything the
 * library prints on System.out goes to stderr: stdout carries the protocol. */
public final class Main {
    private Main() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        System.setOut(System.err);
        boolean stream = args.length > 0 && args[0].equals("stream");
        Properties p = Protocol.adapterProperties();
        Protocol.serve(p.getProperty("adapter.name"), p.getProperty("library.version"), stream, Capabilities.json(),
            StreamTestee.MODES, StreamTestee.MODES_UNSUPPORTED, stream
            ? request -> StreamTestee.parse((Map<String, Object>) request.get("stream"))
            : request -> FileTestee.parse((String) request.get("path")));
    }
}
