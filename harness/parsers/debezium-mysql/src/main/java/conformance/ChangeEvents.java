package conformance;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Debezium's change records as canonical rows events (docs/canonical-model.md). Debezium gives
 * one record per row; its source block names the binlog file and the position of the rows event
 * the row came from (`pos`, with `row` its index there). Consecutive records of one rows event
 * become one canonical event at that position, its rows in order: op c gives the after image,
 * d the before image, u both. Each image holds every column of Debezium's table schema, with
 * the column names (`names`), in the order of its columns. Records are kept as they arrive and
 * mapped at the end, when Debezium's schema history (ColumnCharsets) is complete. */
final class ChangeEvents {
    private final StreamRange range;
    private final List<Struct> records = new ArrayList<>();

    ChangeEvents(StreamRange range) {
        this.range = range;
    }

    /** Takes a data change record (true), kept if its rows event is inside the range; false for
     * any other record (heartbeats, schema changes). */
    synchronized boolean add(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) return false;
        Struct source = value.getStruct("source");
        if (!range.atOrPast(source.getString("file"), source.getInt64("pos"))) records.add(value);
        return true;
    }

    synchronized long lastPosition() {
        return records.isEmpty() ? 0 : records.get(records.size() - 1).getStruct("source").getInt64("pos");
    }

    /** One canonical event per binlog position. Records of one position whose `row` index starts
     * again at 0 came from several rows events there: a compressed transaction (MySQL's
     * Transaction_payload), whose records all carry the payload's position. Nothing in the record
     * says which it is when the payload holds one rows event, so each event carries both
     * readings: `rows` (every row at that position) for a rows event, and `events` (one nested
     * rows event per run of rows) for a Transaction_payload; the comparison takes the field the
     * expected event's type has. */
    synchronized List<Map<String, Object>> canonical(ColumnCharsets charsets) {
        List<Map<String, Object>> events = new ArrayList<>();
        String file = null;
        long position = -1;
        List<Object> rows = null;
        List<Object> nested = null;
        List<Object> nestedRows = null;
        for (Struct value : records) {
            Struct source = value.getStruct("source");
            String recordFile = source.getString("file");
            long pos = source.getInt64("pos");
            if (rows == null || pos != position || !recordFile.equals(file)) {
                file = recordFile;
                position = pos;
                rows = new ArrayList<>();
                nested = new ArrayList<>();
                nestedRows = null;
                events.add(event(pos, rows, nested));
            }
            Integer rowIndex = source.getInt32("row");
            String op = value.getString("op");
            if (nestedRows == null || (rowIndex != null && rowIndex == 0)) {
                nestedRows = new ArrayList<>();
                // where a rows event sits inside the payload, Debezium's records do not say
                Map<String, Object> inner = new LinkedHashMap<>();
                inner.put("type", kind(op));
                inner.put("library_type", "op " + op);
                inner.put("body", Map.of("rows", nestedRows));
                inner.put("_undetermined", List.of("position"));
                nested.add(inner);
            }
            named(events.get(events.size() - 1), op);
            String table = source.getString("db") + "." + source.getString("table");
            Map<String, Object> row = row(value, charsets.at(recordFile, pos, table));
            rows.add(row);
            nestedRows.add(row);
        }
        return events;
    }

    /** The rows event type Debezium's op names (c, r: a write; u; d): the kind of row change,
     * not the event's version, which no record carries (so "type" is not a claimed header field). */
    private static String kind(String op) {
        return switch (op) {
            case "c", "r" -> "WRITE_ROWS_EVENT";
            case "u" -> "UPDATE_ROWS_EVENT";
            case "d" -> "DELETE_ROWS_EVENT";
            default -> null;
        };
    }

    /** The event at one position is named by its records' op; records of two kinds at one position
     * (a compressed transaction's several rows events) name no single event: type null. */
    private static void named(Map<String, Object> event, String op) {
        String type = kind(op);
        if (!event.containsKey("type")) {
            event.put("type", type);
            event.put("library_type", "op " + op);
        } else if (event.get("type") != null && !event.get("type").equals(type)) {
            event.put("type", null);
            event.put("library_type", event.get("library_type") + ", op " + op);
        }
    }

    private static Map<String, Object> event(long pos, List<Object> rows, List<Object> nested) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rows", rows);
        body.put("events", nested);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("position", pos);
        e.put("body", body);
        return e;
    }

    private static Map<String, Object> row(Struct value, Map<String, Charset> charsets) {
        String op = value.getString("op");
        Map<String, Object> r = new LinkedHashMap<>();
        switch (op) {
            case "c", "r" -> r.putAll(image(value.getStruct("after"), charsets));
            case "d" -> r.putAll(image(value.getStruct("before"), charsets));
            case "u" -> {
                r.put("before_image", image(value.getStruct("before"), charsets));
                r.put("after_image", image(value.getStruct("after"), charsets));
            }
            default -> throw new IllegalStateException("change record with op " + op);
        }
        return r;
    }

    private static Map<String, Object> image(Struct s, Map<String, Charset> charsets) {
        List<Object> values = new ArrayList<>();
        List<Object> names = new ArrayList<>();
        if (s != null) {
            for (Field f : s.schema().fields()) {
                names.add(f.name());
                values.add(ColumnValues.of(f.schema(), s.get(f), charsets.get(f.name())));
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("values", values);
        m.put("names", names);
        return m;
    }
}
