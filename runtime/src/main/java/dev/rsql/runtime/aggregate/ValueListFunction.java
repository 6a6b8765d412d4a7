package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * Aggregates over the list of non-NULL values in arrival order: FIRST_VALUE, LAST_VALUE and CONCAT_AGG. Over an
 * append-only input FIRST_VALUE and LAST_VALUE keep just one value; over a changelog (or for CONCAT_AGG) the list is
 * kept so a value can be taken back.
 */
public final class ValueListFunction implements AggregateFunction {

    public enum Kind { FIRST_VALUE, LAST_VALUE, CONCAT_AGG }

    private final Kind kind;
    private final int arg;
    private final String delimiter;
    private final boolean keepList;
    private final List<DataType> accTypes;

    private ValueListFunction(Kind kind, int arg, DataType type, String delimiter, boolean retracting) {
        this.kind = kind;
        this.arg = arg;
        this.delimiter = delimiter;
        this.keepList = retracting || kind == Kind.CONCAT_AGG;
        this.accTypes = keepList ? List.of(DataType.array(type.nullable())) : List.of(type.nullable());
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
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = keepList ? new ArrayList<>() : null;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v == null) {
            return;
        }
        if (keepList) {
            ((List<Object>) acc[offset]).add(v);
        } else if (kind == Kind.LAST_VALUE || acc[offset] == null) {
            acc[offset] = v;
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        if (!keepList) {
            AggregateFunction.super.retract(acc, offset, input);
        }
        Object v = input[arg];
        if (v != null) {
            List<Object> values = (List<Object>) acc[offset];
            int i = kind == Kind.FIRST_VALUE ? values.indexOf(v) : values.lastIndexOf(v);
            if (i >= 0) {
                values.remove(i);
            }
        }
    }

    @Override
    public boolean canRetract() {
        return keepList;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        if (keepList) {
            ((List<Object>) acc[offset]).addAll((List<Object>) other[otherOffset]);
        } else if (other[otherOffset] != null && (kind == Kind.LAST_VALUE || acc[offset] == null)) {
            acc[offset] = other[otherOffset];
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public Object getValue(Object[] acc, int offset) {
        if (!keepList) {
            return acc[offset];
        }
        List<Object> values = (List<Object>) acc[offset];
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
