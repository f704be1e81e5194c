package conformance;

import io.debezium.connector.binlog.charset.BinlogCharsetRegistry;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The character set of each text column, as Debezium's own schema had it when it decoded a row:
 * read back from its schema history file (each entry carries the binlog position of its DDL and
 * the tables it changed, every column with its charsetName). Debezium decodes CHAR/VARCHAR/TEXT
 * bytes with that charset into a Java String (its charset registry names the Java encoding);
 * encoding the String back with the same encoding gives the bytes it decoded, which the
 * canonical value reports. Entries and rows are walked in stream order, so a table altered or
 * re-created mid-case gives each row the definition in force at its position. */
final class ColumnCharsets {
    private static final BinlogCharsetRegistry REGISTRY = registry();

    private record Entry(String file, long pos, List<Object> tableChanges) {}

    private final List<Entry> entries;
    private final Map<String, Map<String, Charset>> tables = new HashMap<>();
    private int next;

    private ColumnCharsets(List<Entry> entries) {
        this.entries = entries;
    }

    /** The connector's own registry (Connector.charsetRegistry: MySqlCharsetRegistry, MariaDbCharsetRegistry). */
    private static BinlogCharsetRegistry registry() {
        try {
            return (BinlogCharsetRegistry) Class.forName(Connector.CURRENT.charsetRegistry()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no charset registry " + Connector.CURRENT.charsetRegistry(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static ColumnCharsets read(Path history) throws IOException {
        List<Entry> entries = new ArrayList<>();
        if (Files.exists(history)) {
            for (String line : Files.readAllLines(history, StandardCharsets.UTF_8)) {
                if (line.isBlank()) continue;
                Map<String, Object> e = (Map<String, Object>) Json.parse(line);
                Map<String, Object> position = (Map<String, Object>) e.get("position");
                Object changes = e.get("tableChanges");
                entries.add(new Entry((String) position.get("file"), StreamRequest.number(position, "pos"),
                    changes instanceof List ? (List<Object>) changes : List.of()));
            }
        }
        return new ColumnCharsets(entries);
    }

    /** The charsets of `table`'s columns for a row at file/pos (rows come in stream order). */
    Map<String, Charset> at(String file, long pos, String table) {
        while (next < entries.size() && !after(entries.get(next), file, pos)) apply(entries.get(next++));
        return tables.getOrDefault(table, Map.of());
    }

    private static boolean after(Entry e, String file, long pos) {
        int order = e.file().compareTo(file);
        return order > 0 || (order == 0 && e.pos() > pos);
    }

    @SuppressWarnings("unchecked")
    private void apply(Entry e) {
        for (Object o : e.tableChanges()) {
            Map<String, Object> change = (Map<String, Object>) o;
            String id = ((String) change.get("id")).replace("\"", "");
            if ("DROP".equals(change.get("type"))) {
                tables.remove(id);
                continue;
            }
            Map<String, Charset> columns = new HashMap<>();
            Map<String, Object> table = (Map<String, Object>) change.get("table");
            for (Object c : (List<Object>) table.get("columns")) {
                Map<String, Object> column = (Map<String, Object>) c;
                String charset = (String) column.get("charsetName");
                String java = charset == null ? null : REGISTRY.getJavaEncodingForCharSet(charset);
                if (java != null && Charset.isSupported(java)) columns.put((String) column.get("name"), Charset.forName(java));
            }
            tables.put(id, columns);
        }
    }
}
