package conformance.fuzz;

/** Jazzer target: Targets.BY_NAME "LogDecoder" on each input; findings noted, the session goes on. */
public final class LogDecoderFuzz {
    private LogDecoderFuzz() {
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String note = Findings.run(Targets.BY_NAME.get("LogDecoder"), data);
        if (note != null) {
            Findings.record(note, Findings.signatureOf(note), data);
        }
    }
}
