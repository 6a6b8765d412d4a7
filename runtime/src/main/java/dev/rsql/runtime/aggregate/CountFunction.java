package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.List;

/** COUNT(*) (no argument) and COUNT(x): rows, or rows where x is not NULL. */
public final class CountFunction implements AggregateFunction {

    private static final List<DataType> ACC = List.of(DataType.of(DataType.Kind.BIGINT).notNull());

    private final int arg;

    /** @param arg the counted field, or -1 for COUNT(*) */
    public CountFunction(int arg) {
        this.arg = arg;
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return ACC;
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = 0L;
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        if (arg < 0 || input[arg] != null) {
            acc[offset] = (Long) acc[offset] + 1;
        }
    }

    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        if (arg < 0 || input[arg] != null) {
            acc[offset] = (Long) acc[offset] - 1;
        }
    }

    @Override
    public boolean canRetract() {
        return true;
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        acc[offset] = (Long) acc[offset] + (Long) other[otherOffset];
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        return acc[offset];
    }

    @Override
    public String name() {
        return arg < 0 ? "COUNT(*)" : "COUNT($" + arg + ")";
    }
}
