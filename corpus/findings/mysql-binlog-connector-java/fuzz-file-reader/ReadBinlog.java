import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;

import java.io.File;

/** The library alone: BinaryLogFileReader with its default EventDeserializer, readEvent() until
 * null, as the library's README shows. Prints each event's type, length and data (toString, cut
 * at 160 characters), then "end" (the reader returned null) or the exception the reader threw.
 *
 *   java -Xmx512m -cp mysql-binlog-connector-java-0.41.0.jar:zstd-jni-1.5.0-2.jar ReadBinlog.java FILE */
public final class ReadBinlog {
    public static void main(String[] args) throws Exception {
        int n = 0;
        try (BinaryLogFileReader reader = new BinaryLogFileReader(new File(args[0]))) {
            for (Event e; (e = reader.readEvent()) != null; n++) {
                EventHeaderV4 h = e.getHeader();
                String data = String.valueOf(e.getData());
                System.out.println(n + " " + h.getEventType() + " at " + h.getPosition() + ", length " + h.getEventLength()
                    + ": " + (data.length() > 160 ? data.substring(0, 160) + "..." : data));
            }
            System.out.println("end after " + n + " events");
        }
    }
}
