package conformance;

import com.google.code.or.common.glossary.Column;
import com.google.code.or.common.glossary.Row;
import com.google.code.or.common.glossary.column.*;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Row values as open-replicator gives them (its Column classes), mapped to the canonical
 * conventions of docs/plugin-contract.md by the Column's class. The mapping only changes
 * representation: the library knows no signedness (every integer is read signed), so none is
 * applied here; DECIMAL's scale is the library's own DecimalColumn.getScale(). */
final class RowValues {
    private static final Map<Class<?>, Function<Column, Object>> BY_CLASS = Map.ofEntries(
        Map.entry(TinyColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(ShortColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(Int24Column.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(LongColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(LongLongColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(YearColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(EnumColumn.class, c -> Values.integer(((Number) c.getValue()).longValue())),
        Map.entry(SetColumn.class, c -> Values.unsignedLong(((Number) c.getValue()).longValue())),
        Map.entry(FloatColumn.class, c -> Values.floating("float", ((Float) c.getValue()).doubleValue())),
        Map.entry(DoubleColumn.class, c -> Values.floating("double", (Double) c.getValue())),
        Map.entry(DecimalColumn.class, c -> decimal((DecimalColumn) c)),
        Map.entry(BitColumn.class, c -> bits((BitColumn) c)),
        Map.entry(StringColumn.class, c -> Values.text(((StringColumn) c).getValue())),
        Map.entry(BlobColumn.class, c -> Values.text((byte[]) c.getValue())));

    private RowValues() {}

    /** The values of one image: the columns present, in column order (the library's Row holds
     * only those). */
    static List<Object> image(Row row) {
        List<Object> out = new ArrayList<>();
        for (Column c : row.getColumns()) out.add(c instanceof NullColumn ? null : value(c));
        return out;
    }

    private static Object value(Column c) {
        Function<Column, Object> f = BY_CLASS.get(c.getClass());
        if (f != null) return f.apply(c);
        return Values.tag("unexpected", c.getClass().getSimpleName() + ": " + c.getValue());
    }

    private static Object decimal(DecimalColumn d) {
        BigDecimal v = d.getValue();
        try {
            return Values.tag("decimal", v.setScale(d.getScale()).toPlainString());
        } catch (ArithmeticException e) {
            return Values.tag("decimal", v.toPlainString());
        }
    }

    /** BIT(n): bit i of the column is get(i) of the library's BitColumn, as a number. */
    private static Object bits(BitColumn b) {
        long x = 0;
        for (int i = 0; i < b.getLength() && i < 64; i++) if (b.get(i)) x |= 1L << i;
        return Values.unsignedLong(x);
    }
}
