package conformance;

import java.util.Map;

/** The end of a request's range (StreamRequest's end_file/end_position): a place in the binlog
 * is at or past it when it is in a later file, or in end_file at or after end_position. Binlog
 * files order by their sequence number (the extension): a served file may carry another name
 * than the one its last Rotate names next (`x.000001` rotating to `binlog.000002`). An
 * end_position of 0 (unknown) is never reached: the primary's end of the stream is. */
final class StreamRange {
    private final String endFile;
    private final long endPosition;

    StreamRange(Map<String, Object> source) {
        this.endFile = (String) source.get("end_file");
        this.endPosition = StreamRequest.number(source, "end_position");
    }

    /** False where the request gives no end (a file the harness expects rejected): the end is
     * then where the primary has nothing more to send. */
    boolean bounded() {
        return endPosition != 0 && endFile != null;
    }

    boolean atOrPast(String file, long position) {
        if (endPosition == 0 || endFile == null) return false;
        int order = file.equals(endFile) ? 0 : Long.compare(sequence(file), sequence(endFile));
        if (order == 0 && !file.equals(endFile)) order = file.compareTo(endFile);
        return order > 0 || (order == 0 && position >= endPosition);
    }

    private static long sequence(String file) {
        try {
            return Long.parseLong(file.substring(file.lastIndexOf('.') + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
