package dev.rsql.runtime.aggregate;

import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * APPROX_COUNT_DISTINCT(x): a HyperLogLog sketch of 2^11 registers (2 KB per group, about 2.3% standard error).
 * Cannot take values back.
 */
public final class ApproxCountDistinctFunction implements AggregateFunction {

    private static final int P = 11;
    private static final int M = 1 << P;
    private static final List<DataType> ACC = List.of(DataType.withPrecision(DataType.Kind.VARBINARY, M, 0).notNull());

    private final int arg;

    public ApproxCountDistinctFunction(int arg) {
        this.arg = arg;
    }

    @Override
    public List<DataType> accumulatorTypes() {
        return ACC;
    }

    @Override
    public void createAccumulator(Object[] acc, int offset) {
        acc[offset] = new byte[M];
    }

    @Override
    public void accumulate(Object[] acc, int offset, Object[] input) {
        Object v = input[arg];
        if (v == null) {
            return;
        }
        long h = mix(v.hashCode() * 0x9E3779B97F4A7C15L + (v instanceof Number ? 17 : 31));
        int register = (int) (h >>> (64 - P));
        int rank = Long.numberOfLeadingZeros((h << P) | (1L << (P - 1))) + 1;
        byte[] regs = (byte[]) acc[offset];
        if (rank > regs[register]) {
            regs[register] = (byte) rank;
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    @Override
    public void merge(Object[] acc, int offset, Object[] other, int otherOffset) {
        byte[] a = (byte[]) acc[offset];
        byte[] b = (byte[]) other[otherOffset];
        for (int i = 0; i < M; i++) {
            if (b[i] > a[i]) {
                a[i] = b[i];
            }
        }
    }

    @Override
    public Object getValue(Object[] acc, int offset) {
        byte[] regs = (byte[]) acc[offset];
        double sum = 0;
        int zeros = 0;
        for (byte r : regs) {
            sum += 1.0 / (1L << r);
            if (r == 0) {
                zeros++;
            }
        }
        double alpha = 0.7213 / (1 + 1.079 / M);
        double estimate = alpha * M * M / sum;
        if (estimate <= 2.5 * M && zeros > 0) {
            estimate = M * Math.log((double) M / zeros);
        }
        return Math.round(estimate);
    }

    @Override
    public String name() {
        return "APPROX_COUNT_DISTINCT($" + arg + ")";
    }
}
