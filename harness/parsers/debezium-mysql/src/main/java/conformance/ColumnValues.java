package conformance;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/** One column value as Debezium's converters give it (ConnectorConfig's modes), back to the
 * canonical value of docs/plugin-contract.md. The logical type is the Connect schema's name;
 * the column's own type, length and scale come from column.propagate.source.type (schema
 * parameters), which give a temporal's fractional digits, a DECIMAL's scale and ENUM/SET's
 * members. The mapping only changes representation: what Debezium converted is reported. */
final class ColumnValues {
    static final String TYPE = "__debezium.source.column.type";
    static final String LENGTH = "__debezium.source.column.length";
    static final String SCALE = "__debezium.source.column.scale";
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    private static final Map<String, BiFunction<Schema, Object, Object>> BY_LOGICAL_NAME = Map.ofEntries(
        Map.entry("io.debezium.time.Date", (s, v) -> Values.tag("date", LocalDate.ofEpochDay((Integer) v).format(DATE))),
        Map.entry("io.debezium.time.Timestamp", (s, v) -> datetime(s, Math.multiplyExact((Long) v, 1000L))),
        Map.entry("io.debezium.time.MicroTimestamp", (s, v) -> datetime(s, (Long) v)),
        Map.entry("io.debezium.time.MicroTime", (s, v) -> time(s, (Long) v)),
        Map.entry("io.debezium.time.ZonedTimestamp", ColumnValues::timestamp),
        Map.entry("io.debezium.time.Year", (s, v) -> Values.integer(((Number) v).longValue())),
        Map.entry("io.debezium.data.Enum", (s, v) -> (long) members(s).indexOf((String) v) + 1),
        Map.entry("io.debezium.data.EnumSet", ColumnValues::set),
        Map.entry("io.debezium.data.Bits", (s, v) -> bits(bytes(v))),
        Map.entry("io.debezium.data.Json", (s, v) -> Values.tag("json", mysqlSpacing((String) v))),
        Map.entry("io.debezium.data.geometry.Geometry", (s, v) -> geometry((Struct) v)),
        Map.entry("io.debezium.data.geometry.Point", (s, v) -> geometry((Struct) v)),
        Map.entry("org.apache.kafka.connect.data.Decimal", (s, v) -> decimalValue(s, (BigDecimal) v)));

    private ColumnValues() {}

    /** `charset`: the Java encoding Debezium decoded this text column with (ColumnCharsets), or
     * null where its schema names none. */
    static Object of(Schema schema, Object v, Charset charset) {
        if (v == null) return null;
        BiFunction<Schema, Object, Object> f = schema.name() == null ? null : BY_LOGICAL_NAME.get(schema.name());
        if (f != null) return f.apply(schema, v);
        return switch (schema.type()) {
            case INT8, INT16, INT32, INT64 -> Values.integer(((Number) v).longValue());
            case FLOAT32 -> Values.floating("float", ((Float) v).doubleValue());
            case FLOAT64 -> Values.floating("double", (Double) v);
            case BOOLEAN -> (Boolean) v ? 1L : 0L;
            case STRING -> isDecimal(schema) ? decimal(schema, new BigDecimal((String) v))
                : Values.text(((String) v).getBytes(charset != null ? charset : StandardCharsets.UTF_8));
            case BYTES -> Values.text(isFixedBinary(schema) ? unpadded(bytes(v)) : bytes(v));
            default -> Values.tag("unexpected", schema.type() + " " + schema.name() + ": " + v);
        };
    }

    private static String param(Schema s, String key) {
        return s.parameters() == null ? null : s.parameters().get(key);
    }

    private static int intParam(Schema s, String key) {
        String v = param(s, key);
        return v == null ? 0 : Integer.parseInt(v);
    }

    private static boolean isDecimal(Schema s) {
        String t = param(s, TYPE);
        return t != null && (t.startsWith("DECIMAL") || t.startsWith("NUMERIC"));
    }

    /** A BIGINT UNSIGNED is a Connect Decimal of scale 0 (bigint.unsigned.handling.mode=precise). */
    private static Object decimalValue(Schema s, BigDecimal v) {
        if (isDecimal(s)) return decimal(s, v);
        return Values.tag("int", v.toBigIntegerExact().toString());
    }

    private static Object decimal(Schema s, BigDecimal v) {
        try {
            return Values.tag("decimal", v.setScale(intParam(s, SCALE)).toPlainString());
        } catch (ArithmeticException e) {
            return Values.tag("decimal", v.toPlainString());
        }
    }

    /** The fractional digits the column stores: DATETIME(n)'s n, Debezium's column length. */
    private static String fraction(Schema s, long nanos) {
        int fsp = intParam(s, LENGTH);
        if (fsp <= 0) return "";
        String nine = String.format("%09d", nanos);
        return "." + nine.substring(0, Math.min(fsp, 6));
    }

    private static Object datetime(Schema s, long micros) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        long nanos = Math.floorMod(micros, 1_000_000L) * 1000L;
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        return Values.tag("datetime", t.format(DATETIME) + fraction(s, nanos));
    }

    private static Object time(Schema s, long micros) {
        long abs = Math.abs(micros);
        long seconds = abs / 1_000_000L;
        String text = String.format("%s%02d:%02d:%02d", micros < 0 ? "-" : "", seconds / 3600, seconds / 60 % 60, seconds % 60);
        return Values.tag("time", text + fraction(s, abs % 1_000_000L * 1000L));
    }

    private static Object timestamp(Schema s, Object v) {
        Instant i = Instant.parse((String) v);
        return Values.tag("timestamp", i.getEpochSecond() + fraction(s, i.getNano()));
    }

    private static List<String> members(Schema s) {
        String allowed = param(s, "allowed");
        return allowed == null ? List.of() : Arrays.asList(allowed.split(",", -1));
    }

    private static Object set(Schema s, Object v) {
        List<String> m = members(s);
        long mask = 0;
        if (!((String) v).isEmpty()) for (String name : ((String) v).split(",")) mask |= 1L << m.indexOf(name);
        return Values.unsignedLong(mask);
    }

    /** BINARY(n): Debezium pads the value with 0x00 to n bytes, as a SELECT returns it; the
     * binlog stores it without the trailing zeros, which is what the canonical value reports. */
    private static boolean isFixedBinary(Schema s) {
        return "BINARY".equals(param(s, TYPE));
    }

    private static byte[] unpadded(byte[] b) {
        int n = b.length;
        while (n > 0 && b[n - 1] == 0) n--;
        return Arrays.copyOf(b, n);
    }

    /** Debezium prints JSON compactly; MySQL's text of a JSON value (what the canonical value
     * is) puts a space after each ',' and ':' between tokens. Only the separators outside strings
     * change: the tokens are Debezium's own. */
    static String mysqlSpacing(String compact) {
        StringBuilder out = new StringBuilder(compact.length() + 16);
        boolean inString = false;
        for (int i = 0; i < compact.length(); i++) {
            char c = compact.charAt(i);
            out.append(c);
            if (inString) {
                if (c == '\\') out.append(compact.charAt(++i));
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == ',' || c == ':') {
                out.append(' ');
            }
        }
        return out.toString();
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) return b;
        ByteBuffer buf = ((ByteBuffer) v).duplicate();
        byte[] b = new byte[buf.remaining()];
        buf.get(b);
        return b;
    }

    /** io.debezium.data.Bits: the bits as a little-endian byte array (java.util.BitSet's). */
    private static Object bits(byte[] little) {
        long x = 0;
        for (int i = Math.min(little.length, 8) - 1; i >= 0; i--) x = (x << 8) | (little[i] & 0xFF);
        return Values.unsignedLong(x);
    }

    /** The stored GEOMETRY value is the SRID (4 bytes, little-endian) and the WKB. */
    private static Object geometry(Struct g) {
        byte[] wkb = bytes(g.get("wkb"));
        Integer srid = g.getInt32("srid");
        ByteBuffer out = ByteBuffer.allocate(4 + wkb.length).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(srid == null ? 0 : srid).put(wkb);
        return Values.binary(out.array());
    }
}
