package conformance;

import java.util.Map;

/** mysql-binlog-connector-java's adapter: the shared Protocol (jvm-shared/) over StreamTestee or
 * FileTestee. Argument: the transport, "stream" or "file". */
public final class Main {
    private Main() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        boolean stream = args.length > 0 && args[0].equals("stream");
        Library library = Library.load();
        Protocol.serve(library.name, library.version, stream, Capabilities.json(), StreamTestee.MODES, java.util.Map.of(), stream
            ? request -> StreamTestee.parse((Map<String, Object>) request.get("stream"))
            : request -> FileTestee.parse((String) request.get("path")));
    }
}
