package conformance;

import java.util.List;
import java.util.Map;

/** What the adapter reports (docs/plugin-contract.md), and only that. Canal's LogDecoder, built
 * for every type (UNKNOWN_EVENT..ENUM_END_EVENT), returns an event for each one, an
 * UnknownLogEvent where it has no class, so every_event is true. It reads the stored CRC32
 * (LogHeader.getCrc) but never checks it, so no checksum is declared. Row values: every type
 * RowsLogBuffer decodes, mapped by RowValues; a partial JSON update's value (JsonDiffConversion's
 * text, not the contract's json_diff list) is not declared. */
final class Capabilities {
    private Capabilities() {}

    static Map<String, Object> json() {
        Map<String, Object> bodies = SharedCapabilities.classicBodies();
        SharedCapabilities.putNewerBodies(bodies);
        SharedCapabilities.putRows(bodies);
        bodies.put("TRANSACTION_PAYLOAD_EVENT", List.of("events"));
        bodies.put("*", List.of());
        return SharedCapabilities.of(bodies, true, SharedCapabilities.ALL_ROW_VALUE_TYPES);
    }
}
