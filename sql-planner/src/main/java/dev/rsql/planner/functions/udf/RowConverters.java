package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.JavaValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.flink.api.java.tuple.Tuple;
import org.apache.flink.types.Row;

import java.lang.reflect.Array;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Turn what a user table function emits into the row fields of its SQL row type (internal values): a {@code Tuple},
 * {@code Row}, {@code Object[]} or {@code List} by position, a {@code Map} by column name, any other value as the
 * only column. Stateless, so one converter serves all tasks.
 */
final class RowConverters {

    private RowConverters() {
    }

    static Function<Object, Object[]> forRowType(RelDataType rowType) {
        List<RelDataTypeField> fields = rowType.getFieldList();
        int n = fields.size();
        String[] types = new String[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            types[i] = fields.get(i).getType().getSqlTypeName().name();
            names[i] = fields.get(i).getName();
        }
        return value -> convert(value, types, names);
    }

    private static Object[] convert(Object value, String[] types, String[] names) {
        if (value == null) {
            return null;
        }
        int n = types.length;
        Object[] out = new Object[n];
        if (value instanceof Tuple) {
            Tuple t = (Tuple) value;
            for (int i = 0; i < n && i < t.getArity(); i++) {
                out[i] = JavaValues.toRowValue(t.getField(i), types[i]);
            }
        } else if (value instanceof Row) {
            Row r = (Row) value;
            for (int i = 0; i < n && i < r.getArity(); i++) {
                out[i] = JavaValues.toRowValue(r.getField(i), types[i]);
            }
        } else if (value instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) value;
            for (int i = 0; i < n; i++) {
                out[i] = JavaValues.toRowValue(lookup(m, names[i]), types[i]);
            }
        } else if (value instanceof List) {
            List<?> l = (List<?>) value;
            for (int i = 0; i < n && i < l.size(); i++) {
                out[i] = JavaValues.toRowValue(l.get(i), types[i]);
            }
        } else if (value instanceof Object[]) {
            Object[] a = (Object[]) value;
            for (int i = 0; i < n && i < a.length; i++) {
                out[i] = JavaValues.toRowValue(a[i], types[i]);
            }
        } else if (value.getClass().isArray() && value.getClass() != byte[].class) {
            for (int i = 0; i < n && i < Array.getLength(value); i++) {
                out[i] = JavaValues.toRowValue(Array.get(value, i), types[i]);
            }
        } else if (n > 0) {
            out[0] = JavaValues.toRowValue(value, types[0]);
        }
        return out;
    }

    /** A map value by column name: exact, then ignoring case (SQL names are case-insensitive). */
    private static Object lookup(Map<?, ?> m, String name) {
        Object v = m.get(name);
        if (v != null || m.containsKey(name)) {
            return v;
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (e.getKey() != null && e.getKey().toString().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return e.getValue();
            }
        }
        return null;
    }
}
