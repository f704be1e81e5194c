package conformance;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;

import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.TimeZone;

/** Row values as the library gives them (Library.deserializer's compatibility modes: temporals as
 * microseconds since the epoch, CHAR/BINARY as bytes), mapped to the canonical conventions of
 * docs/plugin-contract.md. The mapping only changes representation: signedness comes from the
 * library's own Table_map metadata, the fsp and DECIMAL scale from its column metadata. */
final class RowValues {
    static final int TINY = 1, SHORT = 2, LONG = 3, FLOAT = 4, DOUBLE = 5, TIMESTAMP = 7, LONGLONG = 8,
        INT24 = 9, DATE = 10, TIME = 11, DATETIME = 12, YEAR = 13, NEWDATE = 14, VARCHAR = 15, BIT = 16,
        TIMESTAMP2 = 17, DATETIME2 = 18, TIME2 = 19, VECTOR = 242, JSON = 245, NEWDECIMAL = 246,
        ENUM = 247, SET = 248, TINY_BLOB = 249, MEDIUM_BLOB = 250, LONG_BLOB = 251, BLOB = 252,
        VAR_STRING = 253, STRING = 254, GEOMETRY = 255, DECIMAL = 0;
    private static final long MICROS = 1_000_000L;
    private static final long INVALID = Long.MIN_VALUE; // INVALID_DATE_AND_TIME_AS_MIN_VALUE

    private final TableMapEventData table;

    RowValues(TableMapEventData table) { this.table = table; }

    /** The values of one image: the columns present (bitmap), in column order. */
    List<Object> image(BitSet present, Serializable[] row) {
        List<Object> out = new ArrayList<>(row.length);
        int k = 0;
        for (int col = present.nextSetBit(0); col >= 0 && k < row.length; col = present.nextSetBit(col + 1)) {
            out.add(row[k] == null ? null : value(col, row[k]));
            k++;
        }
        return out;
    }

    /** The column's type after the library's own STRING rule (ENUM and SET hide in STRING's metadata). */
    int realType(int col) {
        int type = table.getColumnTypes()[col] & 0xFF;
        int meta = table.getColumnMetadata()[col];
        if (type == STRING && meta >= 256) {
            int meta0 = meta >> 8;
            if ((meta0 & 0x30) != 0x30) return meta0 | 0x30;
            if (meta0 == ENUM || meta0 == SET) return meta0;
        }
        return type;
    }

    private boolean unsigned(int col) {
        TableMapEventMetadata m = table.getEventMetadata();
        BitSet s = m == null ? null : m.getSignedness();
        return s != null && s.get(LibraryFeatures.SIGNEDNESS_PER_NUMERIC_COLUMN ? numericOrdinal(col) : col);
    }

    /** How many numeric columns (MySQL's is_numeric_type: the integers, FLOAT, DOUBLE, DECIMAL)
     * come before `col`: its bit in a SIGNEDNESS bitmap kept as MySQL writes it. */
    private int numericOrdinal(int col) {
        int n = 0;
        for (int c = 0; c < col; c++) {
            switch (table.getColumnTypes()[c] & 0xFF) {
                case TINY, SHORT, INT24, LONG, LONGLONG, FLOAT, DOUBLE, NEWDECIMAL, DECIMAL -> n++;
                default -> { }
            }
        }
        return n;
    }

    Object value(int col, Serializable v) {
        int type = realType(col);
        int meta = table.getColumnMetadata()[col];
        switch (type) {
            case TINY: return integer(col, v, 0xFFL);
            case SHORT: return integer(col, v, 0xFFFFL);
            case INT24: return integer(col, v, 0xFFFFFFL);
            case LONG: return integer(col, v, 0xFFFFFFFFL);
            case LONGLONG: {
                long x = ((Number) v).longValue();
                return unsigned(col) ? Values.unsignedLong(x) : Values.integer(x);
            }
            case YEAR: case ENUM: return Values.integer(((Number) v).longValue());
            case SET: return Values.unsignedLong((Long) v); // a 64-member SET uses every bit of the long
            case FLOAT: return Values.floating("float", ((Float) v).doubleValue());
            case DOUBLE: return Values.floating("double", (Double) v);
            case NEWDECIMAL: return decimal((BigDecimal) v, meta >> 8);
            case BIT: return bits((BitSet) v);
            case DATE: case NEWDATE: return temporal(v, (c, us) -> Values.tag("date", date(c)));
            case DATETIME: case DATETIME2: {
                int fsp = type == DATETIME2 ? meta : 0;
                return temporal(v, (c, us) -> Values.tag("datetime", date(c) + " " + clock(c) + fraction(us, fsp)));
            }
            case TIMESTAMP: case TIMESTAMP2: {
                int fsp = type == TIMESTAMP2 ? meta : 0;
                long us = (Long) v;
                return us == INVALID ? invalid(v)
                    : Values.tag("timestamp", Math.floorDiv(us, MICROS) + fraction(Math.floorMod(us, MICROS), fsp));
            }
            case TIME: case TIME2: return time((Long) v, type == TIME2 ? meta : 0);
            case JSON: return json((byte[]) v);
            case GEOMETRY: case VECTOR: return Values.binary((byte[]) v);
            case STRING: case VARCHAR: case VAR_STRING: case BLOB: case TINY_BLOB: case MEDIUM_BLOB: case LONG_BLOB:
                return v instanceof byte[] ? Values.text((byte[]) v) : Values.text((String) v);
            default: return Values.tag("unexpected", v.getClass().getName() + ": " + v);
        }
    }

    private Object integer(int col, Serializable v, long mask) {
        long x = ((Number) v).longValue();
        return Values.integer(unsigned(col) ? x & mask : x);
    }

    private static Object decimal(BigDecimal d, int scale) {
        try {
            return Values.tag("decimal", d.setScale(scale).toPlainString());
        } catch (ArithmeticException e) { // more digits than the scale: the library's value, as it is
            return Values.tag("decimal", d.toPlainString());
        }
    }

    private static Object bits(BitSet b) {
        long x = 0;
        for (int i = b.nextSetBit(0); i >= 0; i = b.nextSetBit(i + 1)) x |= 1L << i;
        return Values.unsignedLong(x);
    }

    private static Object json(byte[] b) {
        try {
            return Values.tag("json", mysqlSpacing(JsonBinary.parseAsString(b)));
        } catch (IOException e) {
            return Values.tag("unexpected", "JsonBinary: " + e);
        }
    }

    /** The library writes JSON compactly; MySQL's text has a space after each ',' and ':'
     * outside strings. Only the spacing changes. */
    static String mysqlSpacing(String json) {
        StringBuilder b = new StringBuilder(json.length() + json.length() / 4);
        boolean inString = false;
        for (int k = 0; k < json.length(); k++) {
            char c = json.charAt(k);
            b.append(c);
            if (inString) {
                if (c == '\\') b.append(json.charAt(++k));
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == ',' || c == ':') {
                b.append(' ');
            }
        }
        return b.toString();
    }

    private interface Render { Object of(Calendar c, long fractionMicros); }

    /** Microseconds since the epoch back to the fields the library computed them from (its
     * UnixTime: proleptic arithmetic from 1582-10-15, GregorianCalendar(GMT) before). */
    private static Object temporal(Serializable v, Render render) {
        long us = (Long) v;
        if (us == INVALID) return invalid(v);
        Calendar c = new GregorianCalendar(TimeZone.getTimeZone("GMT"));
        c.setTimeInMillis(Math.floorDiv(us, 1000L));
        return render.of(c, Math.floorMod(us, MICROS));
    }

    private static Object invalid(Serializable v) {
        return Values.tag("unexpected", "invalid date (the library's INVALID_DATE_AND_TIME_AS_MIN_VALUE)");
    }

    private static String date(Calendar c) {
        int year = c.get(Calendar.ERA) == GregorianCalendar.BC ? 1 - c.get(Calendar.YEAR) : c.get(Calendar.YEAR);
        return String.format("%04d-%02d-%02d", year, c.get(Calendar.MONTH) + 1, c.get(Calendar.DAY_OF_MONTH));
    }

    private static String clock(Calendar c) {
        return String.format("%02d:%02d:%02d", c.get(Calendar.HOUR_OF_DAY), c.get(Calendar.MINUTE), c.get(Calendar.SECOND));
    }

    static String fraction(long micros, int fsp) {
        if (fsp <= 0) return "";
        String six = String.format("%06d", micros);
        return "." + six.substring(0, Math.min(fsp, 6));
    }

    private static Object time(long us, int fsp) {
        if (us == INVALID) return invalid(us);
        String sign = us < 0 ? "-" : "";
        long a = Math.abs(us), s = a / MICROS;
        return Values.tag("time", String.format("%s%02d:%02d:%02d", sign, s / 3600, s / 60 % 60, s % 60)
            + fraction(a % MICROS, fsp));
    }

}
