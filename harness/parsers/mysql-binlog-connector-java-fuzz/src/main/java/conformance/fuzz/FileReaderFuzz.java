package conformance.fuzz;

/** Jazzer target: Targets.BY_NAME "FileReader" on each input; findings noted, the session goes on. */
public final class FileReaderFuzz {
    private FileReaderFuzz() {
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String note = Findings.run(Targets.BY_NAME.get("FileReader"), data);
        if (note != null) {
            Findings.record(note, Findings.signatureOf(note), data);
        }
    }
}
