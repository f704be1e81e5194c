package conformance;

import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.event.RowsLogBuffer;
import com.taobao.tddl.dbsync.binlog.event.RowsLogEvent;
import com.taobao.tddl.dbsync.binlog.event.TableMapLogEvent;
import com.taobao.tddl.dbsync.binlog.event.TableMapLogEvent.ColumnInfo;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/** The rows of a Canal RowsLogEvent, read as Canal's own LogEventConvert.parseRowsEvent reads
 * them: getRowsBuf(charset) with the connection charset (UTF-8, Canal's default
 * connectionCharset), nextOneRow(columns) / nextOneRow(changeColumns, true) for an update's after
 * image, nextValue(name, index, type, meta, isBinary) per present column, with the
 * TableMapLogEvent's ColumnInfo.
 *
 * LogEventConvert takes two things from its TableMeta (a schema lookup on the live database:
 * SHOW CREATE TABLE, or its TSDB) and falls back to the Table_map's optional metadata without
 * one: whether an integer is unsigned (ColumnInfo.unsigned) and whether a CHAR/VARCHAR is binary
 * (column type containing "BINARY"; the Table_map's equivalent is the binary charset, 63). The
 * adapter uses the Table_map's metadata. Where a binlog has none (before MySQL 8.0.1), a value
 * that would differ with the TableMeta (a negative integer, text that is not UTF-8) cannot be
 * determined from the library alone: the rows of that event are then listed in "_undetermined".
 * Everything else only changes representation (docs/plugin-contract.md). */
final class RowValues {
    static final String UNDETERMINED = "_undetermined";
    private static final int BINARY_CHARSET = 63;
    private static final int VECTOR = 242;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final RowsLogEvent event;
    private final TableMapLogEvent table;
    private final boolean metadata;
    private boolean undetermined;

    private RowValues(RowsLogEvent event) {
        this.event = event;
        this.table = event.getTable();
        this.metadata = table.isExistOptionalMetaData();
    }

    static Map<String, Object> rows(RowsLogEvent event) {
        return new RowValues(event).read();
    }

    private Map<String, Object> read() {
        int type = event.getHeader().getType();
        boolean update = type == LogEvent.UPDATE_ROWS_EVENT || type == LogEvent.UPDATE_ROWS_EVENT_V1
            || type == LogEvent.PARTIAL_UPDATE_ROWS_EVENT;
        RowsLogBuffer buffer = event.getRowsBuf(StandardCharsets.UTF_8);
        BitSet columns = event.getColumns(), changed = event.getChangeColumns();
        List<Object> rows = new ArrayList<>();
        while (buffer.nextOneRow(columns, false)) {
            Map<String, Object> first = Canonical.body("values", image(buffer, columns));
            if (!update) {
                rows.add(first);
                continue;
            }
            if (!buffer.nextOneRow(changed, true)) { // LogEventConvert keeps a lone before image too
                rows.add(Canonical.body("before_image", first));
                break;
            }
            rows.add(Canonical.body("before_image", first, "after_image", Canonical.body("values", image(buffer, changed))));
        }
        Map<String, Object> body = Canonical.body("table_id", event.getTableId(), "rows", rows);
        if (undetermined) body.put(UNDETERMINED, List.of("body.rows"));
        return body;
    }

    private List<Object> image(RowsLogBuffer buffer, BitSet present) {
        ColumnInfo[] info = table.getColumnInfo();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < table.getColumnCnt(); i++) {
            if (!present.get(i)) continue;
            ColumnInfo c = info[i];
            boolean binary = metadata && c.charset == BINARY_CHARSET;
            Serializable v = buffer.nextValue(c.name, i, c.type, c.meta, binary);
            out.add(buffer.isNull() ? null : value(realType(c), c, v, buffer.getLength()));
        }
        return out;
    }

    /** The type RowsLogBuffer decodes (its mysqlToJavaType rule: ENUM, SET and long CHAR hide in
     * STRING's metadata). */
    static int realType(ColumnInfo c) {
        if (c.type == LogEvent.MYSQL_TYPE_STRING && c.meta >= 256) {
            int byte0 = c.meta >> 8;
            if ((byte0 & 0x30) != 0x30) return byte0 | 0x30;
            if (byte0 == LogEvent.MYSQL_TYPE_ENUM || byte0 == LogEvent.MYSQL_TYPE_SET) return byte0;
        }
        return c.type;
    }

    private Object value(int type, ColumnInfo c, Serializable v, int length) {
        switch (type) {
            case LogEvent.MYSQL_TYPE_TINY: case LogEvent.MYSQL_TYPE_SHORT: case LogEvent.MYSQL_TYPE_INT24:
            case LogEvent.MYSQL_TYPE_LONG: case LogEvent.MYSQL_TYPE_LONGLONG:
                return integer(c, ((Number) v).longValue(), length);
            case LogEvent.MYSQL_TYPE_YEAR: return Long.parseLong((String) v);
            case LogEvent.MYSQL_TYPE_ENUM: case LogEvent.MYSQL_TYPE_BIT: case LogEvent.MYSQL_TYPE_SET: return number(v);
            case LogEvent.MYSQL_TYPE_FLOAT: return Values.floating("float", ((Float) v).doubleValue());
            case LogEvent.MYSQL_TYPE_DOUBLE: return Values.floating("double", (Double) v);
            case LogEvent.MYSQL_TYPE_NEWDECIMAL: return Values.decimal((BigDecimal) v, c.meta & 0xFF);
            case LogEvent.MYSQL_TYPE_DATE: return Values.tag("date", (String) v);
            case LogEvent.MYSQL_TYPE_DATETIME: case LogEvent.MYSQL_TYPE_DATETIME2: return Values.tag("datetime", (String) v);
            case LogEvent.MYSQL_TYPE_TIME: case LogEvent.MYSQL_TYPE_TIME2: return Values.tag("time", (String) v);
            case LogEvent.MYSQL_TYPE_TIMESTAMP: case LogEvent.MYSQL_TYPE_TIMESTAMP2: return timestamp((String) v);
            case LogEvent.MYSQL_TYPE_JSON: return Values.tag("json", (String) v);
            case LogEvent.MYSQL_TYPE_GEOMETRY: return Values.binary((byte[]) v);
            case LogEvent.MYSQL_TYPE_BLOB: return Values.text((byte[]) v);
            case LogEvent.MYSQL_TYPE_STRING: case LogEvent.MYSQL_TYPE_VARCHAR: case LogEvent.MYSQL_TYPE_VAR_STRING:
                return v instanceof byte[] ? Values.text((byte[]) v) : text((String) v);
            default: // VECTOR and types newer than the library: RowsLogBuffer gives null, see findings
                return v == null ? null : Values.tag("unexpected", v.getClass().getName() + ": " + v);
        }
    }

    /** As LogEventConvert without a TableMeta: unsigned from the Table_map's SIGNEDNESS. Without
     * that metadata a negative reading is what TableMeta would have corrected, or not. */
    private Object integer(ColumnInfo c, long x, int length) {
        if (!metadata && x < 0) undetermined = true;
        if (!c.unsigned || x >= 0) return Values.integer(x);
        return length == 8 ? Values.unsignedLong(x) : Values.integer(x & ((1L << (8 * length)) - 1));
    }

    /** A String the library decoded with the connection charset (UTF-8): its bytes again. Text
     * that did not decode (U+FFFD) is only Canal's final word where the Table_map says the column
     * is not binary; without that metadata, TableMeta would have made it bytes, or not. */
    private Object text(String s) {
        if (!metadata && s.indexOf('\uFFFD') >= 0) undetermined = true;
        return Values.text(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Object number(Serializable v) {
        if (v instanceof BigInteger) {
            BigInteger b = (BigInteger) v;
            return b.bitLength() <= 53 ? (Object) b.longValue() : Values.tag("int", b.toString());
        }
        return Values.unsignedLong(((Number) v).longValue());
    }

    /** RowsLogBuffer prints a TIMESTAMP with java.sql.Timestamp in the JVM's zone (UTC here,
     * harness/runtimes/jvm.py) and keeps the column's fsp digits: back to epoch seconds. */
    private static Object timestamp(String s) {
        int dot = s.indexOf('.');
        String clock = dot < 0 ? s : s.substring(0, dot), fraction = dot < 0 ? "" : s.substring(dot);
        long seconds = clock.startsWith("0000-00-00") ? 0
            : LocalDateTime.parse(clock, CLOCK).toEpochSecond(ZoneOffset.UTC);
        return Values.tag("timestamp", seconds + fraction);
    }
}
