package conformance.fuzz;

/** Jazzer target: Targets.BY_NAME "FileLogFetcher" on each input; findings noted, the session goes on. */
public final class FileLogFetcherFuzz {
    private FileLogFetcherFuzz() {
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String note = Findings.run(Targets.BY_NAME.get("FileLogFetcher"), data);
        if (note != null) {
            Findings.record(note, Findings.signatureOf(note), data);
        }
    }
}
