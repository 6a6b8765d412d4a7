package dev.rsql.runtime.metrics;

import dev.rsql.runtime.operator.Operator;

import java.util.ArrayList;
import java.util.List;

/**
 * The figures of one task beyond its records in: per-operator counters ({@link OperatorMetrics}), busy time,
 * watermark, checkpoints taken and the time its state took to restore. Written by the task's thread only, in plain
 * fields, and published after each slice (and after each checkpoint), so the per-record path has no synchronisation;
 * {@link #snapshot} is safe from any thread.
 */
public final class TaskMetrics {

    /** What a task's metrics show before it has run (and for tasks that have none). */
    public static final Snapshot NONE = new Snapshot(0, 0, Long.MIN_VALUE, 0, -1, -1, 0, 0, List.of());

    private final OperatorMetrics[] operators;
    /** The operator behind each entry of {@link #operators}, or null (the node the task's input enters by). */
    private final Operator[] instances;
    private final long createdNanos = System.nanoTime();

    // Written by the task's thread only.
    private long busyNanos;
    private long checkpoints;

    private volatile long publishedBusyNanos;
    private volatile long publishedWatermark = Long.MIN_VALUE;
    private volatile long publishedCheckpoints;
    private volatile long lastCheckpointNanos = -1;
    private volatile long restoreNanos = -1;

    /** @param instances the operator of each metrics entry, null where there is none */
    public TaskMetrics(List<OperatorMetrics> operators, List<Operator> instances) {
        if (operators.size() != instances.size()) {
            throw new IllegalArgumentException(operators.size() + " operator metrics for " + instances.size()
                    + " operators");
        }
        this.operators = operators.toArray(new OperatorMetrics[0]);
        this.instances = instances.toArray(new Operator[0]);
    }

    /**
     * Everything a task did, as last published; {@code lifetimeNanos} is how long the task has existed, so that
     * {@link #busyRatio} is the share of it spent processing.
     */
    public record Snapshot(long lifetimeNanos, long busyNanos, long watermark, long checkpoints,
                           long lastCheckpointNanos, long restoreNanos, long recordsOut, long lateRecords,
                           List<OperatorMetrics.Snapshot> operators) {

        public Snapshot {
            operators = List.copyOf(operators);
        }

        /** True when the task has a watermark (an event-time source, or an exchange that received one). */
        public boolean hasWatermark() {
            return watermark != Long.MIN_VALUE && watermark != Long.MAX_VALUE;
        }

        /** The share of the task's lifetime it spent processing rather than waiting, 0 to 1. */
        public double busyRatio() {
            return lifetimeNanos <= 0 ? 0 : Math.min(1.0, (double) busyNanos / lifetimeNanos);
        }
    }

    /** A slice of work ended after {@code nanos} (time spent processing, as opposed to waiting for input). */
    public void sliceEnded(long nanos) {
        busyNanos += nanos;
    }

    /** The task took its part of a checkpoint in {@code nanos} (flush, barrier, state snapshot). */
    public void checkpointTaken(long nanos) {
        checkpoints++;
        lastCheckpointNanos = nanos;
        publishedCheckpoints = checkpoints;
    }

    /**
     * The task's state was restored from a checkpoint in {@code nanos}: said once, by the task's thread when it opens
     * its state, or by whoever restored the state before the task existed.
     */
    public void stateRestored(long nanos) {
        restoreNanos = nanos;
    }

    /** On the task's thread: makes the counts so far visible to readers. */
    public void publish(long watermark) {
        for (int i = 0; i < operators.length; i++) {
            operators[i].publish(instances[i] == null ? 0 : instances[i].lateRecords());
        }
        publishedBusyNanos = busyNanos;
        publishedWatermark = watermark;
    }

    public Snapshot snapshot() {
        List<OperatorMetrics.Snapshot> ops = new ArrayList<>(operators.length);
        long out = 0;
        long late = 0;
        for (OperatorMetrics m : operators) {
            OperatorMetrics.Snapshot s = m.snapshot();
            ops.add(s);
            if (m.leavesTask()) {
                out += s.recordsIn();
            }
            late += s.lateRecords();
        }
        return new Snapshot(System.nanoTime() - createdNanos, publishedBusyNanos, publishedWatermark,
                publishedCheckpoints, lastCheckpointNanos, restoreNanos, out, late, ops);
    }
}
