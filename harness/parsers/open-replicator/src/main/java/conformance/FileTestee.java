package conformance;

import com.google.code.or.binlog.impl.FileBasedBinlogParser;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** FileBasedBinlogParser over one file, as open-replicator's own example sets it up: the
 * directory and the file name, start at byte 4, the default event parsers, a listener; start()
 * runs the parse on the library's worker thread, which stops at the end of the file. */
final class FileTestee {
    private FileTestee() {}

    static List<Map<String, Object>> parse(String path) throws Exception {
        List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
        Canonical canonical = new Canonical();
        File file = new File(path).getAbsoluteFile();
        FileBasedBinlogParser parser = new FileBasedBinlogParser();
        Library.registerParsers(parser);
        parser.setBinlogFilePath(file.getParent());
        parser.setBinlogFileName(file.getName());
        parser.setStartPosition(4);
        Library.Outcome outcome = new Library.Outcome();
        parser.addParserListener(outcome);
        parser.setEventListener(e -> {
            synchronized (events) {
                events.add(canonical.event(e));
            }
        });
        try {
            parser.start();
        } catch (Exception e) { // open(): a missing file, a wrong magic number
            throw new Rejection(e, 0, events);
        }
        outcome.done.await();
        synchronized (events) {
            if (outcome.failure != null) throw new Rejection(outcome.failure, end(events), new ArrayList<>(events));
            return new ArrayList<>(events);
        }
    }

    /** Where the last reported event ended (4 before the first). */
    static long end(List<Map<String, Object>> events) {
        if (events.isEmpty()) return 4;
        Map<String, Object> last = events.get(events.size() - 1);
        return ((Number) last.get("position")).longValue() + ((Number) last.get("event_size")).longValue();
    }
}
