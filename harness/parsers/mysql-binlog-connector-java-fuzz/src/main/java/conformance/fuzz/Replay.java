package conformance.fuzz;

import java.nio.file.Files;
import java.nio.file.Path;

/** `Replay TARGET FILE`: one input through one target outside Jazzer; prints its finding as one
 *  JSON line ({} when clean). A parse still running after $NATIVE_FUZZ_TIMEOUT seconds is a hang,
 *  named by where its thread is (Findings.libraryMethod); the JVM then exits (the thread cannot be
 *  stopped). How the harness confirms a signature and minimises a reproducer by events. */
public final class Replay {
    private Replay() {
    }

    public static void main(String[] args) throws Exception {
        Targets.Target target = Targets.BY_NAME.get(args[0]);
        byte[] data = Files.readAllBytes(Path.of(args[1]));
        double seconds = Double.parseDouble(System.getenv().getOrDefault("NATIVE_FUZZ_TIMEOUT", "5"));
        String[] result = new String[1];
        Thread parse = new Thread(() -> result[0] = Findings.run(target, data), "parse");
        parse.setDaemon(true);
        parse.start();
        parse.join((long) (seconds * 1000));
        try {
            if (parse.isAlive()) {
                StackTraceElement[] trace = parse.getStackTrace();
                result[0] = Findings.note("hang", "hang@" + Findings.libraryMethod(trace),
                    "no result after " + seconds + "s", Findings.stack(trace));
            }
        } catch (OutOfMemoryError e) {
            // the parse thread holds the heap the hang's note needs: it ends on an
            // OutOfMemoryError of its own, whose note names the library's frame
            parse.join((long) (seconds * 1000));
            if (result[0] == null) {
                result[0] = "{\"kind\": \"memory\", \"signature\": \"memory:OutOfMemoryError@outside-library\", "
                    + "\"detail\": \"the heap filled while the parse ran\", \"stack\": \"\"}";
            }
        }
        System.out.println(result[0] == null ? "{}" : result[0]);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
