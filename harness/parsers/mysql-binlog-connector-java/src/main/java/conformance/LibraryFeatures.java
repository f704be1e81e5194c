package conformance;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/** What one build of the library has that another lacks, looked up by name so that one adapter
 * source compiles against every line it serves: the Debezium line 0.41.0, Zendesk 0.30.1, and
 * the 0.27.2 that Flink CDC bundles, which has no BINLOG_CHECKPOINT event type (MariaDB's
 * Binlog_checkpoint reaches its users as an event without a type) and a GtidEventData without
 * last_committed and sequence_number. A feature the build lacks is neither reported nor declared
 * (Capabilities). */
final class LibraryFeatures {
    static final EventType BINLOG_CHECKPOINT = eventType("BINLOG_CHECKPOINT");
    static final boolean GTID_LOGICAL_CLOCK = has(GtidEventData.class, "getLastCommitted")
        && has(GtidEventData.class, "getSequenceNumber");

    /** Flink CDC's replaced TableMapEventMetadataDeserializer (deserialize(stream, columnCount,
     * numericColumnCount)) keeps the Table_map's SIGNEDNESS bitmap as MySQL writes it, one bit per
     * numeric column; the upstream lines (deserialize(stream, columnCount, columnTypes)) spread it
     * to one bit per column. TableMapEventMetadata.getSignedness() means one or the other. */
    static final boolean SIGNEDNESS_PER_NUMERIC_COLUMN = Arrays.stream(
            com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventMetadataDeserializer.class.getMethods())
        .anyMatch(m -> m.getName().equals("deserialize") && m.getParameterCount() == 3
            && m.getParameterTypes()[2] == int.class);

    private LibraryFeatures() {}

    private static EventType eventType(String name) {
        return Arrays.stream(EventType.values()).filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    private static boolean has(Class<?> c, String method) {
        return Arrays.stream(c.getMethods()).anyMatch(m -> m.getName().equals(method) && m.getParameterCount() == 0);
    }

    /** The value of a getter the build has (callers check the feature first). */
    static Object get(Object data, String getter) {
        try {
            Method m = data.getClass().getMethod(getter);
            return m.invoke(data);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(data.getClass().getName() + " has no " + getter, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(getter + " failed", e.getCause());
        }
    }
}
