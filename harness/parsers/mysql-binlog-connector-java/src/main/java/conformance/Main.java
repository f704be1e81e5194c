package conformance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The persistent protocol (docs/plugin-contract.md): a hello, then one reply per parse request,
 * in one JVM for the whole run. Argument: the transport, "stream" or "file". An exception other
 * than the library's IOException (a clean rejection) is a crash of the library: the adapter
 * exits 70 and the harness starts a fresh one for the next case. */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        String transport = args.length > 0 ? args[0] : "file";
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        Library library = Library.load();
        boolean stream = transport.equals("stream");
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("type", "hello");
        hello.put("protocol", 1);
        hello.put("name", stream ? library.name : library.name + "-file");
        hello.put("version", library.version);
        hello.put("transport", stream ? "stream" : "file");
        hello.put("capabilities", Capabilities.json());
        hello.put("unavailable", null);
        out.println(Json.write(hello));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            out.println(Json.write(answer(line, stream)));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> answer(String line, boolean stream) throws Exception {
        Map<String, Object> request = (Map<String, Object>) Json.parse(line);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("id", request.get("id"));
        try {
            List<Map<String, Object>> events = stream
                ? StreamTestee.parse((Map<String, Object>) request.get("stream"))
                : FileTestee.parse((String) request.get("path"));
            reply.put("type", "events");
            reply.put("events", events);
        } catch (Rejection r) {
            reply.put("type", "error");
            reply.put("kind", r.kind);
            reply.put("offset", r.offset);
            reply.put("message", r.getMessage());
            reply.put("events", r.events);
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            System.err.flush();
            System.exit(70);
        }
        return reply;
    }
}
