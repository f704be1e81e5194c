package conformance;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The tagging rules of oracle/values.py: safe integers plain, larger ones int-tagged, text bytes
 * as a string when valid UTF-8 else bytes-tagged, typed tags for the rest. */
final class Values {
    private static final long SAFE = (1L << 53) - 1;

    private Values() {}

    static Map<String, Object> tag(String type, String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("value", value);
        return m;
    }

    static Object integer(long v) {
        return Math.abs(v) <= SAFE ? (Object) v : tag("int", Long.toString(v));
    }

    static Object unsignedLong(long v) {
        return v >= 0 ? integer(v) : tag("int", Long.toUnsignedString(v));
    }

    static Object text(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return binary(b);
        }
    }

    /** A String the library decoded with the platform charset (UTF-8 here): back to its bytes. */
    static Object text(String s) {
        return s == null ? null : text(s.getBytes(StandardCharsets.UTF_8));
    }

    static Map<String, Object> binary(byte[] b) {
        StringBuilder h = new StringBuilder(b.length * 2);
        for (byte x : b) h.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
        return tag("bytes", h.toString());
    }

    /** DECIMAL at exactly the column's scale; a value with more digits than the scale as it is. */
    static Map<String, Object> decimal(java.math.BigDecimal d, int scale) {
        try {
            return tag("decimal", d.setScale(scale).toPlainString());
        } catch (ArithmeticException e) {
            return tag("decimal", d.toPlainString());
        }
    }

    static Object floating(String type, double v) {
        if (Double.isNaN(v)) return tag(type, "nan");
        if (Double.isInfinite(v)) return tag(type, v > 0 ? "inf" : "-inf");
        return v;
    }
}
