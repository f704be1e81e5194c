package conformance.fuzz;

/** Jazzer target: Targets.BY_NAME "EventDeserializer" on each input; findings noted, the session goes on. */
public final class EventDeserializerFuzz {
    private EventDeserializerFuzz() {
    }

    public static void fuzzerTestOneInput(byte[] data) {
        String note = Findings.run(Targets.BY_NAME.get("EventDeserializer"), data);
        if (note != null) {
            Findings.record(note, Findings.signatureOf(note), data);
        }
    }
}
