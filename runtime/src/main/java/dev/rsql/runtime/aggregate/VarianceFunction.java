package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.Numbers;

import java.util.List;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP with Welford's running mean and sum of squared deviations, which can
 * also take values back and merge two accumulators (Chan et al.).
 */
public final class VarianceFunction implements AggregateFunction {

    public enum Kind { VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP }

    private static final List<DataType> ACC = List.of(
            DataType.of(DataType.Kind.BIGINT).notNull(),
            DataType.of(DataType.Kind.DOUBLE).notNull(),
            DataType.of(DataType.Kind.DOUBLE).notNull());

    private final Kind kind;
    private final int arg;
    private final DataType resultType;

    public VarianceFunction(Kind kind, int arg, DataType resultType) {
        this.kind = kind;
        this.arg = arg;
        this.resultType = resultType;
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return ACC;
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = 0L;
        acc[offset + 1] = 0.0;
        acc[offset + 2] = 0.0;
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        if (input[arg] == null) {
            return;
        }
        double x = Numbers.toDouble(input[arg]);
        long n = (Long) acc[offset] + 1;
        double mean = (Double) acc[offset + 1];
        double delta = x - mean;
        mean += delta / n;
        acc[offset] = n;
        acc[offset + 1] = mean;
        acc[offset + 2] = (Double) acc[offset + 2] + delta * (x - mean);
    }

    @Override
    public void retract(Object[] acc, int offset, Object[] input) {
        if (input[arg] == null) {
            return;
        }
        double x = Numbers.toDouble(input[arg]);
        long n = (Long) acc[offset] - 1;
        if (n == 0) {
            createAccumulator(acc, offset);
            return;
        }
        double mean = (Double) acc[offset + 1];
        double newMean = (mean * (n + 1) - x) / n;
        acc[offset] = n;
        acc[offset + 1] = newMean;
        acc[offset + 2] = Math.max(0.0, (Double) acc[offset + 2] - (x - mean) * (x - newMean));
    }

    @Override
    public boolean canRetract() {
        return true;
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        long nb = (Long) other[otherOffset];
        if (nb == 0) {
            return;
        }
        long na = (Long) acc[offset];
        double meanA = (Double) acc[offset + 1];
        double meanB = (Double) other[otherOffset + 1];
        long n = na + nb;
        double delta = meanB - meanA;
        acc[offset] = n;
        acc[offset + 1] = meanA + delta * nb / n;
        acc[offset + 2] = (Double) acc[offset + 2] + (Double) other[otherOffset + 2] + delta * delta * na * nb / n;
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        long n = (Long) acc[offset];
        boolean sample = kind == Kind.VAR_SAMP || kind == Kind.STDDEV_SAMP;
        if (n == 0 || sample && n == 1) {
            return null;
        }
        double variance = (Double) acc[offset + 2] / (sample ? n - 1 : n);
        double v = kind == Kind.STDDEV_POP || kind == Kind.STDDEV_SAMP ? Math.sqrt(variance) : variance;
        return Numbers.fromDouble(v, resultType);
    }

    @Override
    public String name() {
        return kind + "($" + arg + ")";
    }
}
