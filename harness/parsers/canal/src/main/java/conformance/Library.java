package conformance;

import com.taobao.tddl.dbsync.binlog.LogContext;
import com.taobao.tddl.dbsync.binlog.LogDecoder;
import com.taobao.tddl.dbsync.binlog.LogEvent;

import java.util.List;
import java.util.Map;

/** What both testees share: which failures of the library are its clean refusal of the input
 * (its IOException for a bad stream or file, its own bounds checks, a rows event whose table id
 * no Table_map named: Canal's TableIdNotFoundException / CanalException), and the nested events
 * of a Transaction_payload as LogDecoder.processIterateDecode gives them. */
final class Library {
    private Library() {}

    /** A failure Canal raises on purpose about its input; anything else is a crash. */
    static boolean refusal(Throwable e) {
        return e instanceof java.io.IOException || e instanceof IllegalArgumentException
            || e instanceof com.alibaba.otter.canal.common.CanalException;
    }

    static Rejection reject(Exception e, long offset, List<Map<String, Object>> events) throws Exception {
        if (refusal(e)) return new Rejection(e, offset, events);
        throw e;
    }

    /** The canonical event of `e` at `position`; a Transaction_payload's with its inner events. */
    static Map<String, Object> event(long position, LogEvent e, LogDecoder decoder, LogContext context) throws Exception {
        Map<String, Object> out = Canonical.event(position, e);
        if (e.getHeader().getType() == LogEvent.TRANSACTION_PAYLOAD_EVENT) {
            List<LogEvent> inner = decoder.processIterateDecode(e, context);
            @SuppressWarnings("unchecked") Map<String, Object> body = (Map<String, Object>) out.get("body");
            body.put("events", Canonical.nested(position + e.getHeader().getEventLen(), inner));
        }
        return out;
    }
}
