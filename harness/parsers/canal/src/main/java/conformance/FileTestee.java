package conformance;

import com.taobao.tddl.dbsync.binlog.FileLogFetcher;
import com.taobao.tddl.dbsync.binlog.LogContext;
import com.taobao.tddl.dbsync.binlog.LogDecoder;
import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.LogPosition;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** FileLogFetcher + LogDecoder over one file, as Canal's LocalBinLogConnection.dump (the
 * connection of LocalBinlogEventParser) reads a local binlog: a 16 KiB fetcher opened at byte 4,
 * a decoder for every type (UNKNOWN_EVENT..ENUM_END_EVENT), a LogContext that carries the
 * Format_description and the Table_maps, `while (fetcher.fetch()) { event = decoder.decode(fetcher,
 * context); if (event == null) continue; ... }`, and processIterateDecode for a
 * Transaction_payload. The loop ends where fetch() says the file ends. An event's position is
 * where the previous one ended. */
final class FileTestee {
    private static final int BUFFER_SIZE = 16 * 1024; // LocalBinlogEventParser.bufferSize

    private FileTestee() {}

    static List<Map<String, Object>> parse(String path) throws Exception {
        List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
        File file = new File(path);
        long position = 4;
        try (FileLogFetcher fetcher = new FileLogFetcher(BUFFER_SIZE)) {
            LogDecoder decoder = new LogDecoder(LogEvent.UNKNOWN_EVENT, LogEvent.ENUM_END_EVENT);
            LogContext context = new LogContext();
            fetcher.open(file, 4L);
            context.setLogPosition(new LogPosition(file.getName(), 4L));
            while (fetcher.fetch()) {
                LogEvent event = decoder.decode(fetcher, context);
                if (event == null) continue;
                events.add(Library.event(position, event, decoder, context));
                position += event.getHeader().getEventLen();
            }
        } catch (Exception e) {
            throw Library.reject(e, position, events);
        }
        return events;
    }
}
