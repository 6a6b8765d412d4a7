package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.Numbers;

import java.util.List;

/** SUM(x) and AVG(x) over non-NULL values; NULL when there are none. */
public final class SumFunction implements AggregateFunction {

    private final int arg;
    private final SumState sum;
    private final DataType resultType;
    private final boolean average;
    private final List<DataType> accTypes;

    private SumFunction(int arg, DataType inputType, DataType resultType, boolean average) {
        this.arg = arg;
        this.sum = new SumState(inputType);
        this.resultType = resultType;
        this.average = average;
        this.accTypes = List.of(sum.sumType(), DataType.of(DataType.Kind.BIGINT).notNull());
    }

    public static SumFunction sum(int arg, DataType inputType, DataType resultType) {
        return new SumFunction(arg, inputType, resultType, false);
    }

    public static SumFunction avg(int arg, DataType inputType, DataType resultType) {
        return new SumFunction(arg, inputType, resultType, true);
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return accTypes;
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = sum.zero();
        acc[offset + 1] = 0L;
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v != null) {
            acc[offset] = sum.add(acc[offset], v, 1);
            acc[offset + 1] = (Long) acc[offset + 1] + 1;
        }
    }

    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v != null) {
            acc[offset] = sum.add(acc[offset], v, -1);
            acc[offset + 1] = (Long) acc[offset + 1] - 1;
        }
    }

    @Override
    public boolean canRetract() {
        return true;
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        acc[offset] = sum.add(acc[offset], other[otherOffset], 1);
        acc[offset + 1] = (Long) acc[offset + 1] + (Long) other[otherOffset + 1];
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        long count = (Long) acc[offset + 1];
        if (count == 0) {
            return null;
        }
        return average ? Numbers.divide(acc[offset], count, sum.sumType(), resultType) : sum.result(acc[offset], resultType);
    }

    @Override
    public String name() {
        return (average ? "AVG($" : "SUM($") + arg + ")";
    }
}
