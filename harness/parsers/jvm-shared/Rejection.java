package conformance;

import java.util.List;
import java.util.Map;

/** The library refused the input (an IOException: EOF inside an event, a body it could not
 * decode, an ERR packet): a clean rejection, with the events it gave before. */
final class Rejection extends Exception {
    final String kind;
    final long offset;
    final transient List<Map<String, Object>> events;

    Rejection(Throwable cause, long offset, List<Map<String, Object>> events) {
        super(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        this.kind = cause.getClass().getSimpleName();
        this.offset = offset;
        this.events = events;
    }
}
