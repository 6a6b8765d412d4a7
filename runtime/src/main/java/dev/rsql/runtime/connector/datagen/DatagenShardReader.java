package dev.rsql.runtime.connector.datagen;

import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;

import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Generates the rows of one shard. When throttled and ahead of schedule, {@link #read} returns 0 and a timer wakes
 * the task once the next row is due, so the task thread never blocks. Positions are row indexes within the shard.
 */
final class DatagenShardReader implements ShardReader {

    private final String table;
    private final int shard;
    private final FieldGenerator[] generators;
    private final long limit;              // rows of this shard, or -1 when unbounded
    private final double rowsPerSecond;    // of this shard; <= 0: unthrottled
    private final SplittableRandom random;
    private final ScheduledExecutorService timer;
    private final AtomicBoolean wakeUpPending = new AtomicBoolean();

    private volatile Runnable availabilityListener;
    private volatile ScheduledFuture<?> pending;
    private volatile boolean closed;
    private long next;
    /** The row reading started at: the throttle counts rows due from here, not from row 0. */
    private final long firstRow;
    private long startNanos = -1;

    /** @param startRow the row to continue at (a restored checkpoint); earlier rows are generated and dropped */
    DatagenShardReader(String table, int shard, FieldGenerator[] generators, long limit, double rowsPerSecond,
                       long seed, ScheduledExecutorService timer, long startRow) {
        this.table = table;
        this.shard = shard;
        this.generators = generators;
        this.limit = limit;
        this.rowsPerSecond = rowsPerSecond;
        this.random = new SplittableRandom(seed);
        this.timer = timer;
        this.firstRow = startRow;
        // Generating the skipped rows keeps the random sequence, so a seeded source resumes with the same data.
        long now = System.currentTimeMillis();
        while (next < startRow) {
            long row = next++;
            for (FieldGenerator g : generators) {
                g.next(random, row, now);
            }
        }
    }

    @Override
    public String shardId() {
        return "datagen-" + shard;
    }

    @Override
    public String description() {
        return "datagen " + table + " shard " + shard + (limit >= 0 ? " (" + limit + " rows)" : "")
                + (rowsPerSecond > 0 ? " at " + rowsPerSecond + " rows/s" : "");
    }

    @Override
    public int read(ReaderOutput output, int maxRecords) throws Exception {
        long budget = maxRecords;
        if (limit >= 0) {
            budget = Math.min(budget, limit - next);
            if (budget <= 0) {
                return 0;
            }
        }
        if (rowsPerSecond > 0) {
            long nowNanos = System.nanoTime();
            if (startNanos < 0) {
                startNanos = nowNanos;
            }
            double elapsed = (nowNanos - startNanos) / 1e9;
            long due = firstRow + (long) (elapsed * rowsPerSecond) + 1;
            if (next >= due) {
                long nextDueNanos = startNanos + (long) Math.ceil((next - firstRow) / rowsPerSecond * 1e9);
                scheduleWakeUp(Math.max(nextDueNanos - nowNanos, 1_000_000L));
                return 0;
            }
            budget = Math.min(budget, due - next);
        }
        long now = System.currentTimeMillis();
        int n = (int) budget;
        for (int i = 0; i < n; i++) {
            long row = next++;
            Object[] fields = new Object[generators.length];
            for (int f = 0; f < fields.length; f++) {
                fields[f] = generators[f].next(random, row, now);
            }
            output.emit(row, fields);
        }
        return n;
    }

    private void scheduleWakeUp(long delayNanos) {
        if (timer == null || closed || !wakeUpPending.compareAndSet(false, true)) {
            return;
        }
        try {
            pending = timer.schedule(() -> {
                wakeUpPending.set(false);
                Runnable l = availabilityListener;
                if (l != null && !closed) {
                    l.run();
                }
            }, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            wakeUpPending.set(false);   // the source is closing
        }
    }

    @Override
    public boolean isEndOfInput() {
        return limit >= 0 && next >= limit;
    }

    @Override
    public void setAvailabilityListener(Runnable listener) {
        this.availabilityListener = listener;
    }

    @Override
    public String describePosition(long position) {
        return "datagen " + table + " shard " + shard + ", row " + position;
    }

    @Override
    public long position() {
        return next;
    }

    @Override
    public void commit(long position) {
        // nothing to remember: generated rows are not replayed
    }

    @Override
    public long lag() {
        return limit >= 0 ? limit - next : -1;
    }

    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> p = pending;
        if (p != null) {
            p.cancel(false);
        }
    }
}
