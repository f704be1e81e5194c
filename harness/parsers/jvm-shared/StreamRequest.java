package conformance;

import java.util.Map;

/** A parse request's "stream" object (docs/plugin-contract.md): where the dump starts, and the
 * event end at which a stream testee stops reporting. */
final class StreamRequest {
    private StreamRequest() {}

    static long number(Map<String, Object> source, String key) {
        Object v = source.get(key);
        return v == null ? 0 : ((Number) v).longValue();
    }

    /** The event that ended at `end` of `file` is the last one asked for. An end_position of 0
     * means none is given: the primary ends the dump. */
    static boolean reachedEnd(Map<String, Object> source, String file, long end) {
        long endPosition = number(source, "end_position");
        return endPosition != 0 && file.equals(source.get("end_file")) && end >= endPosition;
    }
}
