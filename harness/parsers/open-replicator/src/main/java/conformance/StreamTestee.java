package conformance;

import com.google.code.or.OpenReplicator;
import com.google.code.or.binlog.BinlogEventV4;
import com.google.code.or.binlog.BinlogEventV4Header;
import com.google.code.or.binlog.impl.ReplicationBasedBinlogParser;
import com.google.code.or.binlog.impl.event.FormatDescriptionEvent;
import com.google.code.or.binlog.impl.event.RotateEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** OpenReplicator against the harness's primary, configured as Maxwell configured it
 * (MaxwellReplicator, docs/findings.md): host, port, user, password, a replica server id,
 * file/position start, a 50 MiB level-2 buffer; no heartbeat (Maxwell's is optional and would
 * only add HEARTBEAT_EVENTs the library drops anyway). stopOnEOF (the library's non-blocking
 * dump, Maxwell's replay mode): the parser ends by itself at the primary's EOF, so it is never
 * stopped in the middle of an event (stopping it closes the socket under its thread, which then
 * reports an exception of its own). Events past end_position of end_file are not reported, nor a
 * failure after one of them arrived. One replicator per request. */
final class StreamTestee {
    private static final int LOG_EVENT_ARTIFICIAL_F = 0x20;
    private static final long STOP_MILLIS = 10_000;

    private final Map<String, Object> source;
    private final Canonical canonical = new Canonical();
    private final List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
    private final Library.Outcome outcome = new Library.Outcome();
    private String file;
    private long end;            // where the last reported event ended
    private boolean finished;    // the end was reported: later events are not
    private boolean beyond;      // an event past the end arrived: a failure now is not the range's

    private StreamTestee(Map<String, Object> source) {
        this.source = source;
        this.file = (String) source.get("file");
        this.end = StreamRequest.number(source, "start_position");
    }

    static List<Map<String, Object>> parse(Map<String, Object> source) throws Exception {
        return new StreamTestee(source).run();
    }

    /** The library's own default parser, with our listener on its end/error path added before
     * its worker starts (OpenReplicator.start() starts it at once). */
    private final class Replicator extends OpenReplicator {
        @Override
        protected ReplicationBasedBinlogParser getDefaultBinlogParser() throws Exception {
            ReplicationBasedBinlogParser p = super.getDefaultBinlogParser();
            p.addParserListener(outcome);
            return p;
        }
    }

    private List<Map<String, Object>> run() throws Exception {
        OpenReplicator r = new Replicator();
        r.setHost((String) source.get("host"));
        r.setPort((int) StreamRequest.number(source, "port"));
        r.setUser((String) source.get("user"));
        r.setPassword((String) source.get("password"));
        r.setServerId(ThreadLocalRandom.current().nextInt(0x10000, 0x7FFFFFFF));
        r.setBinlogFileName(file);
        r.setBinlogPosition(end);
        r.setLevel2BufferSize(50 * 1024 * 1024);
        r.setStopOnEOF(true);
        r.setBinlogEventListener(this::onEvents);
        try {
            r.start();
        } catch (Exception e) { // connect, handshake, the set-up queries, COM_BINLOG_DUMP's ERR
            r.stopQuietly(STOP_MILLIS, TimeUnit.MILLISECONDS);
            throw new Rejection(e, end, events);
        }
        outcome.done.await(); // the parser stops by itself at the primary's EOF
        r.stopQuietly(STOP_MILLIS, TimeUnit.MILLISECONDS);
        synchronized (this) {
            finished = true;
            if (!beyond && outcome.failure != null) throw new Rejection(outcome.failure, end, new ArrayList<>(events));
            return new ArrayList<>(events);
        }
    }

    private synchronized void onEvents(BinlogEventV4 event) {
        if (finished) {
            beyond = true;
            return;
        }
        BinlogEventV4Header h = event.getHeader();
        boolean resent = (event instanceof RotateEvent || event instanceof FormatDescriptionEvent) && h.getNextPosition() == 0;
        if ((h.getFlags() & LOG_EVENT_ARTIFICIAL_F) != 0 || resent) return;
        Map<String, Object> e = canonical.event(event);
        long position = h.getNextPosition() != 0 ? h.getNextPosition() - h.getEventLength() : end;
        e.put("position", position);
        if (h.getNextPosition() == 0) e.put("_undetermined", List.of("position"));
        events.add(e);
        end = position + h.getEventLength();
        if (StreamRequest.reachedEnd(source, file, end)) {
            finished = true;
        } else if (event instanceof RotateEvent) {
            file = new String(((RotateEvent) event).getBinlogFileName().getValue(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
