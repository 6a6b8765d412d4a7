package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * MIN(x) / MAX(x). Over an append-only input the accumulator is the extreme value itself; over a changelog it counts
 * every value (a MAP), so that taking back the current extreme finds the next one.
 */
public final class MinMaxFunction implements AggregateFunction {

    private final int arg;
    private final boolean max;
    private final boolean retracting;
    private final List<DataType> accTypes;

    public MinMaxFunction(int arg, DataType type, boolean max, boolean retracting) {
        this.arg = arg;
        this.max = max;
        this.retracting = retracting;
        this.accTypes = retracting
                ? List.of(DataType.map(type.nullable(), DataType.of(DataType.Kind.BIGINT).notNull()))
                : List.of(type.nullable());
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return accTypes;
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = retracting ? new HashMap<>() : null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private boolean better(Object candidate, Object current) {
        int c = ((Comparable) candidate).compareTo(current);
        return max ? c > 0 : c < 0;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v == null) {
            return;
        }
        if (retracting) {
            ((Map<Object, Long>) acc[offset]).merge(v, 1L, Long::sum);
        } else if (acc[offset] == null || better(v, acc[offset])) {
            acc[offset] = v;
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v == null) {
            return;
        }
        if (!retracting) {
            AggregateFunction.super.retract(acc, offset, input);
        }
        Map<Object, Long> counts = (Map<Object, Long>) acc[offset];
        counts.computeIfPresent(v, (k, n) -> n > 1 ? n - 1 : null);
    }

    /** Without counts, a value worse than the extreme leaves it unchanged; the extreme itself needs a rebuild. */
    @Override
    public boolean tryRetract(Object[] acc, int offset, Object[] input) {
        if (retracting) {
            retract(acc, offset, input);
            return true;
        }
        Object v = input[arg];
        return v == null || acc[offset] != null && better(acc[offset], v);
    }

    @Override
    public boolean canRetract() {
        return retracting;
    }

    @SuppressWarnings("unchecked")
    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        if (retracting) {
            ((Map<Object, Long>) other[otherOffset]).forEach((k, n) -> ((Map<Object, Long>) acc[offset]).merge(k, n, Long::sum));
        } else if (other[otherOffset] != null && (acc[offset] == null || better(other[otherOffset], acc[offset]))) {
            acc[offset] = other[otherOffset];
        }
    }

    @SuppressWarnings("unchecked")
    @Override
    public Object getValue(Object[] acc, int offset) {
        if (!retracting) {
            return acc[offset];
        }
        Object best = null;
        for (Object v : ((Map<Object, Long>) acc[offset]).keySet()) {
            if (best == null || better(v, best)) {
                best = v;
            }
        }
        return best;
    }

    @Override
    public String name() {
        return (max ? "MAX($" : "MIN($") + arg + ")";
    }
}
