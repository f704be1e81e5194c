package conformance;

import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** In-memory offsets, seeded with the case's first binlog file and position (and GTIDs: StartMode):
 * the offset the connector would have stored had it stopped there, so that it resumes streaming at that event
 * (Debezium has no snapshot mode that starts at a chosen position; `recovery` with this offset
 * rebuilds the schema and then streams from it). Keyed and encoded as the engine's own
 * OffsetStorageWriter does: JsonConverter, schemas off, key [engine name, partition]. */
public final class SeededOffsets extends MemoryOffsetBackingStore {
    /** One engine at a time per JVM: the seed of the request being served. */
    static volatile Map<ByteBuffer, ByteBuffer> seed = Map.of();

    /** `offset` null: none stored (the connector's first start). */
    static void seed(String engineName, Map<String, Object> partition, Map<String, Object> offset) {
        if (offset == null) {
            seed = Map.of();
            return;
        }
        JsonConverter c = new JsonConverter();
        c.configure(Map.of("schemas.enable", false, "converter.type", "key"), true);
        byte[] key = c.fromConnectData("", null, List.of(engineName, partition));
        byte[] value = c.fromConnectData("", null, offset);
        seed = Map.of(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
    }

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
    }

    @Override
    public synchronized void start() {
        super.start();
        data.putAll(seed);
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Collections.emptySet();
    }
}
