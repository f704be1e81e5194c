package conformance.fuzz;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/** What a target does with a failure the library lets escape: its documented error
 *  (Targets.refusal) is a clean outcome; any other Throwable is a finding, named
 *  `crash:Type@File.java:line` by the first frame inside the library (Targets.LIBRARY), and its
 *  input and note written to $NATIVE_FUZZ_FINDINGS (the first few of each signature), so that
 *  the session goes on. */
final class Findings {
    static final String LIBRARY = Targets.LIBRARY;
    private static final int KEEP_PER_SIGNATURE = 3;
    private static final Map<String, Integer> SEEN = new HashMap<>();

    private Findings() {
    }

    /** The note of a finding as one JSON object, or null when the outcome is clean. */
    static String run(Targets.Target target, byte[] data) {
        try {
            target.parse(data);
            return null;
        } catch (Throwable t) {
            if (Targets.refusal(t)) {
                return null;
            }
            String kind = t instanceof OutOfMemoryError ? "memory" : "crash";
            return note(kind, kind + ":" + t.getClass().getSimpleName() + "@" + libraryFrame(t.getStackTrace()),
                String.valueOf(t), stack(t.getStackTrace()));
        }
    }

    static String libraryFrame(StackTraceElement[] trace) {
        for (StackTraceElement e : trace) {
            if (e.getClassName().startsWith(LIBRARY)) {
                return e.getFileName() + ":" + e.getLineNumber();
            }
        }
        return "outside-library";
    }

    /** The event decoder a hung thread is in (the outermost frame of a class
     *  Targets.decodesEvents names), else the innermost library method; by name, not line: where
     *  a loop that never ends is caught varies from one dump to the next. */
    static String libraryMethod(StackTraceElement[] trace) {
        for (int i = trace.length - 1; i >= 0; i--) {
            StackTraceElement e = trace[i];
            if (Targets.decodesEvents(e.getClassName())) {
                String cls = e.getClassName();
                return e.getFileName() + ":" + cls.substring(cls.lastIndexOf('.') + 1) + "." + e.getMethodName();
            }
        }
        for (StackTraceElement e : trace) {
            if (e.getClassName().startsWith(LIBRARY)) {
                String cls = e.getClassName();
                return e.getFileName() + ":" + cls.substring(cls.lastIndexOf('.') + 1) + "." + e.getMethodName();
            }
        }
        return "outside-library";
    }

    static String stack(StackTraceElement[] trace) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(trace.length, 40); i++) {
            b.append("\tat ").append(trace[i]).append('\n');
        }
        return b.toString();
    }

    static String note(String kind, String signature, String detail, String stack) {
        return "{\"kind\": " + quote(kind) + ", \"signature\": " + quote(signature) + ", \"detail\": "
            + quote(detail.length() > 500 ? detail.substring(0, 500) : detail) + ", \"stack\": " + quote(stack) + "}";
    }

    static synchronized void record(String note, String signature, byte[] data) {
        String dir = System.getenv("NATIVE_FUZZ_FINDINGS");
        int n = SEEN.merge(signature, 1, Integer::sum);
        if (dir == null || n > KEEP_PER_SIGNATURE) {
            return;
        }
        try {
            StringBuilder hex = new StringBuilder();
            for (byte x : MessageDigest.getInstance("SHA-1").digest(data)) {
                hex.append(String.format("%02x", x));
            }
            Files.write(Path.of(dir, hex + ".bin"), data);
            Files.writeString(Path.of(dir, hex + ".json"), note + "\n");
        } catch (Exception e) {
            throw new IllegalStateException("cannot write a finding: " + e, e);
        }
    }

    static String signatureOf(String note) {
        int at = note.indexOf("\"signature\": \"") + 14;
        return note.substring(at, note.indexOf('"', at));
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
