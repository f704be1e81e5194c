package conformance;

import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;

import java.io.IOException;
import java.util.Properties;

/** Which line of mysql-binlog-connector-java this build carries (adapter.properties, filled by
 * the folder's pom), and the EventDeserializer its best-known user configures (docs/findings.md).
 *
 * Both Maxwell (Zendesk line) and Debezium (Debezium line) take CHAR/BINARY values as bytes and
 * temporals at microsecond precision: Maxwell through these compatibility modes, Debezium by
 * overriding the same row decoders with its own (RowDeserializers, outside the library). The
 * library's own way to that result is the modes below, so both lines are tested with them; the
 * EXT_*_ROWS decoders keep the library's default (may contain extra information), as Debezium
 * registers them. */
final class Library {
    final String name;
    final String version;

    private Library(String name, String version) {
        this.name = name;
        this.version = version;
    }

    static Library load() throws IOException {
        Properties p = Protocol.adapterProperties();
        return new Library(p.getProperty("adapter.name"), p.getProperty("library.version"));
    }

    static EventDeserializer deserializer() {
        EventDeserializer d = new EventDeserializer();
        d.setCompatibilityMode(CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
            CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
            CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE);
        return d;
    }
}
