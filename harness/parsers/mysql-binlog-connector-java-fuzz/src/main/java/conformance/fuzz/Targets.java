package conformance.fuzz;

import com.github.shyiko.mysql.binlog.BinaryLogFileReader;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

/** The library's entry points that decode a whole file or an event, as its users call them; the
 *  prefix of its classes and its documented error, for Findings (shared by the -fuzz folders of
 *  this library's other builds through their `src` symlink, and by other libraries' folders
 *  through symlinks to Findings.java and Replay.java). */
final class Targets {
    static final String LIBRARY = "com.github.shyiko.mysql.binlog";

    interface Target {
        void parse(byte[] data) throws Exception;
    }

    static final Map<String, Target> BY_NAME = Map.of(
        "FileReader", Targets::fileReader,
        "EventDeserializer", Targets::eventByEvent);

    private Targets() {
    }

    /** The classes that decode an event's data (where Findings names a hang). */
    static boolean decodesEvents(String className) {
        return className.startsWith(LIBRARY) && className.endsWith("DataDeserializer");
    }

    /** IOException, EventDataDeserializationException among them. */
    static boolean refusal(Throwable t) {
        return t instanceof IOException;
    }

    /** The adapter's settings (harness/parsers/mysql-binlog-connector-java/.../Library.java). */
    static EventDeserializer deserializer() {
        EventDeserializer d = new EventDeserializer();
        d.setCompatibilityMode(CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
            CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
            CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE);
        return d;
    }

    /** BinaryLogFileReader over the file, readEvent() until null, as its README shows. */
    static void fileReader(byte[] data) throws IOException {
        try (BinaryLogFileReader reader = new BinaryLogFileReader(new ByteArrayInputStream(data), deserializer())) {
            while (reader.readEvent() != null) {
                // every event decoded; nothing kept
            }
        }
    }

    /** One EventDeserializer over the events, each handed over in a stream of its own, as
     *  BinaryLogClient hands it each packet's event. */
    static void eventByEvent(byte[] data) throws IOException {
        if (data.length < 4 || data[0] != (byte) 0xfe || data[1] != 'b' || data[2] != 'i' || data[3] != 'n') {
            return;
        }
        EventDeserializer d = deserializer();
        for (int pos = 4; pos + 19 <= data.length; ) {
            long size = (data[pos + 9] & 0xffL) | (data[pos + 10] & 0xffL) << 8 | (data[pos + 11] & 0xffL) << 16
                | (data[pos + 12] & 0xffL) << 24;
            if (size < 19 || size > data.length - pos) {
                return;
            }
            d.nextEvent(new com.github.shyiko.mysql.binlog.io.ByteArrayInputStream(
                java.util.Arrays.copyOfRange(data, pos, pos + (int) size)));
            pos += (int) size;
        }
    }
}
