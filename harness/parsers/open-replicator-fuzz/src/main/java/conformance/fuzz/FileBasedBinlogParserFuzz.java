package conformance.fuzz;

/** Jazzer target: Targets.BY_NAME "FileBasedBinlogParser" on each input; findings noted, the session goes on. */
public final class FileBasedBinlogParserFuzz {
    private FileBasedBinlogParserFuzz() {
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String note = Findings.run(Targets.BY_NAME.get("FileBasedBinlogParser"), data);
        if (note != null) {
            Findings.record(note, Findings.signatureOf(note), data);
        }
    }
}
