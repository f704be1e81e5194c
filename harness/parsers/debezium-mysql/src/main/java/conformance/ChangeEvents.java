package conformance;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Debezium's change records as canonical rows events (docs/canonical-model.md). Debezium gives
 * one record per row; its source block names the binlog file and the position of the rows event
 * the row came from (`pos`, with `row` its index there). Consecutive records of one rows event
 * become one canonical event at that position, its rows in order: op c gives the after image,
 * d the before image, u both. Each image holds every column of Debezium's table schema, with
 * the column names (`names`), in the order of its columns. */
final class ChangeEvents {
    private final StreamRange range;
    private final List<Map<String, Object>> events = new ArrayList<>();
    private String file;
    private long position = -1;
    private List<Object> rows;

    ChangeEvents(StreamRange range) {
        this.range = range;
    }

    /** Takes a data change record (true), reported if its rows event is inside the range; false
     * for any other record (heartbeats, schema changes). */
    boolean add(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) return false;
        Struct source = value.getStruct("source");
        String recordFile = source.getString("file");
        long pos = source.getInt64("pos");
        if (range.atOrPast(recordFile, pos)) return true; // a real server streams on past the end
        if (rows == null || pos != position || !recordFile.equals(file)) startEvent(recordFile, pos);
        rows.add(row(value.getString("op"), value));
        return true;
    }

    private void startEvent(String recordFile, long pos) {
        file = recordFile;
        position = pos;
        rows = new ArrayList<>();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rows", rows);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("position", pos);
        e.put("body", body);
        events.add(e);
    }

    private static Map<String, Object> row(String op, Struct value) {
        Map<String, Object> r = new LinkedHashMap<>();
        switch (op) {
            case "c", "r" -> r.putAll(image(value.getStruct("after")));
            case "d" -> r.putAll(image(value.getStruct("before")));
            case "u" -> {
                r.put("before_image", image(value.getStruct("before")));
                r.put("after_image", image(value.getStruct("after")));
            }
            default -> throw new IllegalStateException("change record with op " + op);
        }
        return r;
    }

    private static Map<String, Object> image(Struct s) {
        List<Object> values = new ArrayList<>();
        List<Object> names = new ArrayList<>();
        if (s != null) {
            for (Field f : s.schema().fields()) {
                names.add(f.name());
                values.add(ColumnValues.of(f.schema(), s.get(f)));
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("values", values);
        m.put("names", names);
        return m;
    }

    long lastPosition() {
        return Math.max(position, 0);
    }

    List<Map<String, Object>> canonical() {
        return new ArrayList<>(events);
    }
}
