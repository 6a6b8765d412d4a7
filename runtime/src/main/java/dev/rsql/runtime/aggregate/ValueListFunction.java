package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Aggregates over the list of non-NULL values in arrival order: FIRST_VALUE, LAST_VALUE and CONCAT_AGG. Over an
 * append-only input FIRST_VALUE and LAST_VALUE keep just one value; over a changelog (or for CONCAT_AGG) the list is
 * kept so a value can be taken back.
 *
 * <p>The list is a map from an arrival number to the value (a view field, so a group aggregation keeps one state
 * entry per value), with the next arrival number beside it; over a changelog a second view maps each value to the
 * arrival numbers of its copies, so taking a value back touches its own entries only.
 */
public final class ValueListFunction implements AggregateFunction {

    public enum Kind { FIRST_VALUE, LAST_VALUE, CONCAT_AGG }

    private static final DataType SEQ = DataType.of(DataType.Kind.BIGINT).notNull();

    private final Kind kind;
    private final int arg;
    private final String delimiter;
    private final boolean keepList;
    private final boolean retracting;
    private final List<DataType> accTypes;

    private ValueListFunction(Kind kind, int arg, DataType type, String delimiter, boolean retracting) {
        this.kind = kind;
        this.arg = arg;
        this.delimiter = delimiter;
        this.keepList = retracting || kind == Kind.CONCAT_AGG;
        this.retracting = retracting;
        DataType value = type.nullable();
        if (!keepList) {
            this.accTypes = List.of(value);
        } else if (retracting) {
            // [arrival -> value, next arrival, value -> its arrivals]
            this.accTypes = List.of(DataType.map(SEQ, value), SEQ, DataType.map(value, DataType.array(SEQ)));
        } else {
            this.accTypes = List.of(DataType.map(SEQ, value), SEQ);
        }
    }

    public static ValueListFunction first(int arg, DataType type, boolean retracting) {
        return new ValueListFunction(Kind.FIRST_VALUE, arg, type, null, retracting);
    }

    public static ValueListFunction last(int arg, DataType type, boolean retracting) {
        return new ValueListFunction(Kind.LAST_VALUE, arg, type, null, retracting);
    }

    /** Blink's CONCAT_AGG([delimiter,] value): values joined by the delimiter (default a line feed). */
    public static ValueListFunction concat(int arg, String delimiter) {
        return new ValueListFunction(Kind.CONCAT_AGG, arg, DataType.string(), delimiter == null ? "\n" : delimiter, true);
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return accTypes;
    }

    @Override
    public List<ViewField> viewFields() {
        if (!keepList) {
            return List.of();
        }
        ViewField values = ViewField.ofMap(0, accTypes.get(0));
        return retracting ? List.of(values, ViewField.ofMap(2, accTypes.get(2))) : List.of(values);
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        if (!keepList) {
            acc[offset] = null;
            return;
        }
        acc[offset] = new HashMap<>();
        acc[offset + 1] = 0L;
        if (retracting) {
            acc[offset + 2] = new HashMap<>();
        }
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v == null) {
            return;
        }
        if (keepList) {
            append(acc, offset, v);
        } else if (kind == Kind.LAST_VALUE || acc[offset] == null) {
            acc[offset] = v;
        }
    }

    @SuppressWarnings("unchecked")
    private void append(Object[] acc, int offset, Object v) {
        long seq = (Long) acc[offset + 1];
        acc[offset + 1] = seq + 1;
        ((Map<Object, Object>) acc[offset]).put(seq, v);
        if (retracting) {
            Map<Object, Object> positions = (Map<Object, Object>) acc[offset + 2];
            List<Object> at = (List<Object>) positions.get(v);
            List<Object> updated = at == null ? new ArrayList<>(1) : new ArrayList<>(at);
            updated.add(seq);
            positions.put(v, updated);
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        if (!retracting) {
            AggregateFunction.super.retract(acc, offset, input);
        }
        Object v = input[arg];
        if (v == null) {
            return;
        }
        Map<Object, Object> positions = (Map<Object, Object>) acc[offset + 2];
        List<Object> at = (List<Object>) positions.get(v);
        if (at == null) {
            return;
        }
        // Arrivals are appended in order: FIRST_VALUE takes back the first copy, the others the last.
        List<Object> updated = new ArrayList<>(at);
        Object seq = updated.remove(kind == Kind.FIRST_VALUE ? 0 : updated.size() - 1);
        ((Map<Object, Object>) acc[offset]).remove(seq);
        if (updated.isEmpty()) {
            positions.remove(v);
        } else {
            positions.put(v, updated);
        }
    }

    @Override
    public boolean canRetract() {
        return retracting;
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        if (keepList) {
            for (Object v : inOrder(other, otherOffset)) {
                append(acc, offset, v);
            }
        } else if (other[otherOffset] != null && (kind == Kind.LAST_VALUE || acc[offset] == null)) {
            acc[offset] = other[otherOffset];
        }
    }

    /** The list's values by arrival. */
    @SuppressWarnings("unchecked")
    private static List<Object> inOrder(Object[] acc, int offset) {
        List<Map.Entry<Object, Object>> entries = new ArrayList<>(((Map<Object, Object>) acc[offset]).entrySet());
        entries.sort((a, b) -> Long.compare((Long) a.getKey(), (Long) b.getKey()));
        List<Object> values = new ArrayList<>(entries.size());
        for (Map.Entry<Object, Object> e : entries) {
            values.add(e.getValue());
        }
        return values;
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        if (!keepList) {
            return acc[offset];
        }
        List<Object> values = inOrder(acc, offset);
        if (values.isEmpty()) {
            return null;
        }
        switch (kind) {
            case FIRST_VALUE:
                return values.get(0);
            case LAST_VALUE:
                return values.get(values.size() - 1);
            default:
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < values.size(); i++) {
                    if (i > 0) {
                        sb.append(delimiter);
                    }
                    sb.append(values.get(i));
                }
                return sb.toString();
        }
    }

    @Override
    public String name() {
        return kind + "($" + arg + ")";
    }
}
