package conformance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The persistent protocol (docs/plugin-contract.md), shared by every JVM adapter: a hello, then
 * one reply per parse request, in one JVM for the whole run. A Rejection is a clean refusal of
 * the input; any other RuntimeException or Error is a crash of the library: the adapter sends a
 * "crashed" reply with the events delivered before it (the list named by {@link #delivering}),
 * exits 70, and the harness starts a fresh one for the next case. */
public final class Protocol {
    /** One parse request (its "path" for a file testee, its "stream" object for a stream one). */
    public interface Testee {
        List<Map<String, Object>> parse(Map<String, Object> request) throws Exception;
    }

    private Protocol() {}

    private static List<Map<String, Object>> delivering = new java.util.ArrayList<>();

    /** Name the list the adapter fills as it decodes (and return it): if the library then
     * crashes, these events are sent in the "crashed" reply and still compared. */
    public static <L extends List<Map<String, Object>>> L delivering(L events) {
        delivering = events;
        return events;
    }

    /** Serve stdin until it closes. `name` is the registry's stream name; a file testee is NAME-file. */
    public static void serve(String name, String version, boolean stream, Map<String, Object> capabilities,
                             Testee testee) throws Exception {
        serve(name, version, stream, capabilities, List.of("position"), Map.of(), testee);
    }

    /** The same, for a stream testee that runs in more stream modes than position ("modes"), and
     * says for the others why not ("modes_unsupported": the library's documentation). */
    public static void serve(String name, String version, boolean stream, Map<String, Object> capabilities,
                             List<String> modes, Map<String, String> modesUnsupported, Testee testee) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("type", "hello");
        hello.put("protocol", 1);
        hello.put("name", stream ? name : name + "-file");
        hello.put("version", version);
        hello.put("transport", stream ? "stream" : "file");
        hello.put("capabilities", capabilities);
        hello.put("unavailable", null);
        if (stream) {
            hello.put("modes", modes);
            hello.put("modes_unsupported", modesUnsupported);
        }
        out.println(Json.write(hello));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            out.println(Json.write(answer(line, testee)));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> answer(String line, Testee testee) throws Exception {
        Map<String, Object> request = (Map<String, Object>) Json.parse(line);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("id", request.get("id"));
        delivering = new java.util.ArrayList<>();
        try {
            List<Map<String, Object>> events = testee.parse(request);
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
            reportCrash(request.get("id"), e);
            System.exit(70);
        }
        return reply;
    }

    /** The "crashed" reply; nothing when it cannot be written (the crash may be the JVM out of
     * memory): the exit still says crash. */
    private static void reportCrash(Object id, Throwable e) {
        try {
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("type", "crashed");
            reply.put("id", id);
            reply.put("message", e.toString());
            reply.put("events", new java.util.ArrayList<>(delivering));
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
            out.println(Json.write(reply));
            out.flush();
        } catch (RuntimeException | Error ignored) {
            // the exit status tells the harness
        }
    }

    /** The library version and adapter name Maven filtered into adapter.properties from the pom. */
    public static java.util.Properties adapterProperties() throws java.io.IOException {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Protocol.class.getResourceAsStream("/adapter.properties")) {
            if (in == null) throw new java.io.IOException("adapter.properties missing from the build");
            p.load(in);
        }
        return p;
    }
}
