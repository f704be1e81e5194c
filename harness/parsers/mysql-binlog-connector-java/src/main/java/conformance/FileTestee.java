package conformance;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** BinaryLogFileReader over one file, as its README shows: readEvent() until null. An event's
 * position is where the previous one ended (the reader walks the file from byte 4). */
final class FileTestee {
    private FileTestee() {}

    static List<Map<String, Object>> parse(String path) throws Rejection, IOException {
        List<Map<String, Object>> events = Protocol.delivering(new ArrayList<>());
        Canonical canonical = new Canonical();
        long position = 4;
        try (BinaryLogFileReader reader = new BinaryLogFileReader(new File(path), Library.deserializer())) {
            for (Event e; (e = reader.readEvent()) != null; ) {
                events.add(canonical.event(position, e));
                position += ((EventHeaderV4) e.getHeader()).getEventLength();
            }
        } catch (IOException e) {
            throw new Rejection(e, position, events);
        }
        return events;
    }
}
