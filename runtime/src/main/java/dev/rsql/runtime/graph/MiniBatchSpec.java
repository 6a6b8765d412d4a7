package dev.rsql.runtime.graph;

/**
 * Mini-batch aggregation ({@code table.exec.mini-batch.*}): an aggregate buffers its input per group key in the heap
 * and folds it into state once per key when the batch is due: after {@code latencyMillis} since its first row, once
 * it holds {@code maxRows} rows, before a checkpoint or a watermark is passed on, and at the end of the input.
 */
public record MiniBatchSpec(long latencyMillis, long maxRows) {

    public MiniBatchSpec {
        if (latencyMillis <= 0 || maxRows <= 0) {
            throw new IllegalArgumentException("a mini-batch needs a positive latency and size");
        }
    }

    @Override
    public String toString() {
        return "mini-batch=" + latencyMillis + "ms/" + maxRows + " rows";
    }
}
