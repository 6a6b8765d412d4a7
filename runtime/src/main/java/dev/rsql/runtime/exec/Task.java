package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.graph.LookupJoinNode;
import dev.rsql.runtime.lookup.LookupTable;
import dev.rsql.runtime.metrics.TaskMetrics;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.operator.SinkOperator;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.table.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the operators of one input: a source shard ({@link SourceTask}) or one partition of an exchange
 * ({@link PartitionTask}). A task is driven by one worker thread at a time: it runs in slices on the shared worker
 * pool, and everything else (checkpoints, timers, stop requests) reaches it as mail executed between records, so its
 * operators, state and writers never need locks.
 */
public abstract class Task {

    private static final Logger LOG = LoggerFactory.getLogger(Task.class);

    /** Records per read call. */
    static final int READ_BATCH = 256;
    /** A slice yields after this many records or {@link #SLICE_NANOS}, so tasks share the workers fairly. */
    private static final int SLICE_RECORDS = 8192;
    private static final long SLICE_NANOS = 20_000_000L;

    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int RUNNING = 2;
    private static final int RUNNING_WOKEN = 3;
    private static final int TERMINATED = 4;

    protected final String id;
    protected final TaskServices services;
    protected final TaskTopology topology;
    protected final Output head;
    /** Skips or fails on records and rows that cannot be processed, per the source tables' policy. */
    protected final RecordErrorHandler errors;
    private final TaskMetrics metrics;
    private final Queue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final AtomicInteger schedule = new AtomicInteger(IDLE);
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final AtomicBoolean checkpointQueued = new AtomicBoolean();
    private final TaskSnapshot restored;

    // Owned by the thread running the task.
    private boolean opened;
    private boolean stopRequested;
    private KeyedStateBackend state;
    private long nextWakeup = Long.MAX_VALUE;

    // Published for status readers on other threads.
    private volatile TaskStatus.State status = TaskStatus.State.RUNNING;
    private volatile long publishedIn;
    private volatile long publishedOut;
    private volatile long lastCheckpointMillis;
    private volatile Throwable failure;
    /** Written by the task's thread only; volatile so that the watchdog sees each record begin. */
    protected volatile long recordsIn;
    // For the watchdog and the stop path: the thread in a slice of this task (null between slices), since when.
    private volatile Thread sliceThread;
    private volatile long sliceStartedNanos;
    private volatile StuckRecord stuck;

    Task(String id, TaskServices services, TaskTopology topology, RecordErrorHandler errors) {
        this.id = id;
        this.errors = errors;
        this.services = services;
        this.topology = topology;
        this.head = topology.head();
        this.metrics = topology.metrics();
        this.restored = services.restored(id);
    }

    public String id() {
        return id;
    }

    /** Completes when the task has finished, stopped or failed. */
    public CompletableFuture<Void> terminated() {
        return terminated;
    }

    /** Describes the task's input for logs and status. */
    abstract String description();

    /** Reads up to {@code budget} records or events from the input; 0 when nothing is available now. */
    abstract int readInput(int budget) throws Exception;

    /** True once the input has ended (bounded input drained, or every upstream task ended). */
    abstract boolean inputEnded();

    /** The source position to record with a checkpoint, or -1. */
    abstract long position();

    /** The watermark to record with a checkpoint. */
    abstract long currentWatermark();

    /** Called after the last record, before operators close: e.g. commit the final position. */
    abstract void beforeClose(boolean endOfInput) throws Exception;

    void start() {
        LOG.info("job={} task={} started reading {}", services.jobName(), id, description());
        StartupTrace.mark("task " + id + " started reading");
        wakeUp();
    }

    /** Finish the records in hand, flush and close, without treating the input as ended. */
    void requestStop() {
        sendMail(() -> stopRequested = true);
    }

    /** Takes part in checkpoint {@code checkpointId} at the next record boundary (source tasks start them). */
    void triggerCheckpoint(long checkpointId) {
        sendMail(() -> checkpoint(checkpointId));
    }

    /**
     * As {@link #triggerCheckpoint}, unless a checkpoint asked for this way still waits in the mailbox: a task too busy
     * to keep up with its timer takes the next checkpoint, not a backlog of them.
     */
    void triggerCheckpointUnlessQueued(long checkpointId) {
        if (checkpointQueued.compareAndSet(false, true)) {
            sendMail(() -> {
                checkpointQueued.set(false);
                checkpoint(checkpointId);
            });
        }
    }

    /** The checkpoint is complete everywhere. */
    void notifyCheckpointComplete(long checkpointId) {
        sendMail(() -> {
            try {
                checkpointComplete(checkpointId);
                for (Operator op : topology.operators()) {
                    op.notifyCheckpointComplete(checkpointId);
                }
            } catch (Exception e) {
                throw new CheckpointException("job " + services.jobName() + " task " + id
                        + ": completing checkpoint " + checkpointId + " failed", e);
            }
        });
    }

    /** Hook for source tasks: commit the position of a completed checkpoint. */
    void checkpointComplete(long checkpointId) throws Exception {
    }

    final void sendMail(Runnable mail) {
        mailbox.add(mail);
        wakeUp();
    }

    /**
     * Sends {@code mail} after {@code delayMillis}, through the job's timer thread; not at all once the job is
     * stopping (its timer thread is gone first, and the task must go on to its last checkpoint).
     */
    final void sendMailLater(Runnable mail, long delayMillis) {
        try {
            services.timers().schedule(() -> sendMail(mail), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the mail would never arrive; what it was for ends with the job
        }
    }

    /** Schedules a slice unless one is queued or running; a wake-up during a slice makes it run once more. */
    final void wakeUp() {
        while (true) {
            int s = schedule.get();
            if (s == IDLE) {
                if (schedule.compareAndSet(IDLE, QUEUED)) {
                    submit();
                    return;
                }
            } else if (s == RUNNING) {
                if (schedule.compareAndSet(RUNNING, RUNNING_WOKEN)) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    private void submit() {
        try {
            services.workers().execute(this::runSlice);
        } catch (RejectedExecutionException e) {
            schedule.set(TERMINATED);
            terminate(TaskStatus.State.FAILED, new IllegalStateException("worker pool shut down", e));
        }
    }

    private void runSlice() {
        schedule.set(RUNNING);
        sliceStartedNanos = System.nanoTime();
        sliceThread = Thread.currentThread();
        boolean more;
        try {
            more = slice();
        } catch (Throwable t) {
            // An error of the JVM itself (out of memory, stack overflow) names the record and function it hit.
            fail(t instanceof VirtualMachineError ? RecordException.fatal(services.jobName(), id, currentRecord(),
                    CallStack.function(t.getStackTrace()), t) : t);
            return;
        } finally {
            sliceThread = null;
            metrics.sliceEnded(System.nanoTime() - sliceStartedNanos);
            publish();
        }
        if (status != TaskStatus.State.RUNNING) {
            return;
        }
        if (more || !schedule.compareAndSet(RUNNING, IDLE)) {
            schedule.set(QUEUED);
            submit();
        }
    }

    /** Runs mail and then input for a bounded time. Returns true when there is more to do right away. */
    private boolean slice() throws Exception {
        if (!opened) {
            open();
        }
        runMail();
        if (status != TaskStatus.State.RUNNING) {
            return false;
        }
        if (stopRequested) {
            finish(false);
            return false;
        }
        long deadline = System.nanoTime() + SLICE_NANOS;
        int total = 0;
        while (total < SLICE_RECORDS && !congested()) {
            int n = readInput(READ_BATCH);
            if (n == 0 || status != TaskStatus.State.RUNNING) {
                break;
            }
            total += n;
            if (!mailbox.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
        }
        if (status != TaskStatus.State.RUNNING) {
            return false;
        }
        for (StageOutput w : topology.stageOutputs()) {
            w.flush();
        }
        if (inputEnded()) {
            finish(endOfInputReached());
            return false;
        }
        afterSlice(total);
        return (total > 0 && !congested()) || !mailbox.isEmpty();
    }

    /**
     * Called when the input ended: true when it was really exhausted (open windows fire), false when the upstream
     * tasks merely stopped.
     */
    abstract boolean endOfInputReached() throws Exception;

    /** Hook: what to do after a slice (e.g. schedule an idleness check). */
    void afterSlice(int records) {
    }

    private boolean congested() {
        for (StageOutput w : topology.stageOutputs()) {
            if (w.isCongested()) {
                return true;
            }
        }
        return false;
    }

    private void runMail() {
        Runnable mail;
        while ((mail = mailbox.poll()) != null) {
            mail.run();
            if (status != TaskStatus.State.RUNNING) {
                return;
            }
        }
    }

    private void open() throws Exception {
        opened = true;
        OperatorContext context = new Context();
        for (Operator op : topology.operators()) {
            op.open(context);
        }
    }

    /**
     * Flushes operators and sinks, passes the barrier on (after every row before it), then persists the task's part:
     * state, position, watermark.
     */
    final void checkpoint(long checkpointId) {
        if (status != TaskStatus.State.RUNNING) {
            return;
        }
        try {
            long began = System.nanoTime();
            long position = position();
            for (Operator op : topology.operators()) {
                op.flush();
            }
            flushSideOutputs();
            for (StageOutput w : topology.stageOutputs()) {
                w.barrier(checkpointId);
            }
            persist(checkpointId, position);
            metrics.checkpointTaken(System.nanoTime() - began);
            lastCheckpointMillis = System.currentTimeMillis();
        } catch (Exception e) {
            throw new CheckpointException("job " + services.jobName() + " task " + id + ": checkpoint "
                    + checkpointId + " at " + description() + " failed", e);
        }
    }

    /** Persists the task's part of a checkpoint once everything before it is flushed and passed on. */
    void persist(long checkpointId, long position) throws Exception {
        String stateDir = state == null ? null : services.coordinator().snapshotState(checkpointId, id, state);
        recordCheckpoint(checkpointId, position);
        services.coordinator().acknowledge(checkpointId, new TaskSnapshot(id, position, currentWatermark(), stateDir));
    }

    /** Takes checkpoint {@code checkpointId} at the next record boundary and then stops (its input moves away). */
    void requestCheckpointAndStop(long checkpointId) {
        sendMail(() -> {
            checkpoint(checkpointId);
            stopRequested = true;
        });
    }

    /** Hook for source tasks: remember the position a checkpoint covers. */
    void recordCheckpoint(long checkpointId, long position) {
    }

    /** Flushes the writers the topology does not know (dead letters). */
    private void flushSideOutputs() throws Exception {
        errors.flush();
    }

    /** Ends the task: at the end of its input, or on a stop request (open windows then stay in state). */
    final void finish(boolean endOfInput) throws Exception {
        if (endOfInput) {
            for (Operator op : topology.operators()) {
                op.endOfInput();
            }
        }
        for (StageOutput w : topology.stageOutputs()) {
            w.endOfStream();
        }
        for (Operator op : topology.operators()) {
            op.flush();
        }
        flushSideOutputs();
        beforeClose(endOfInput);
        closeAll(null);
        LOG.info("job={} task={} {} at {}: {} records in, {} rows out", services.jobName(), id,
                endOfInput ? "finished" : "stopped", description(), recordsIn, sinkRowsWritten());
        terminate(TaskStatus.State.FINISHED, null);
    }

    final void fail(Throwable cause) {
        LOG.error("job={} task={} failed reading {}", services.jobName(), id, description(), cause);
        closeAll(cause);
        terminate(TaskStatus.State.FAILED, cause);
    }

    /** Closes operators, side outputs and state; problems are added to {@code cause} when failing. */
    private void closeAll(Throwable cause) {
        for (Operator op : topology.operators()) {
            try {
                op.close();
            } catch (Exception e) {
                if (cause != null) {
                    cause.addSuppressed(e);
                } else {
                    LOG.warn("job={} task={}: closing an operator failed", services.jobName(), id, e);
                }
            }
        }
        try {
            errors.close();
            closeInput();
        } catch (Exception e) {
            if (cause != null) {
                cause.addSuppressed(e);
            } else {
                LOG.warn("job={} task={}: closing its input failed", services.jobName(), id, e);
            }
        }
        if (state != null) {
            state.close();
        }
    }

    /** Hook: release the input (close the shard reader). */
    void closeInput() {
    }

    private void terminate(TaskStatus.State finalState, Throwable cause) {
        failure = cause;
        status = finalState;
        schedule.set(TERMINATED);
        if (sliceThread == Thread.currentThread()) {
            // The slice ending here counts as busy before the counts are published, not after.
            long now = System.nanoTime();
            metrics.sliceEnded(now - sliceStartedNanos);
            sliceStartedNanos = now;
        }
        // Before termination completes: whoever waits for it reads the final counts.
        publish();
        if (cause == null) {
            services.taskFinished(this);
        } else {
            services.taskFailed(this, cause);
        }
        terminated.complete(null);
    }

    final boolean isRunning() {
        return status == TaskStatus.State.RUNNING;
    }

    /** Makes the counts so far visible to status readers; on the task's thread. */
    private void publish() {
        publishedIn = recordsIn;
        publishedOut = sinkRowsWritten();
        metrics.publish(currentWatermark());
    }

    private long sinkRowsWritten() {
        long n = 0;
        for (SinkOperator op : topology.sinkOperators()) {
            n += op.written();
        }
        return n;
    }

    /** Skipped records, for status. */
    final long skipped() {
        return errors.skipped();
    }

    /** The record being processed (or the last one), for reports from other threads; read after {@link #recordsIn}. */
    String currentRecord() {
        return description() + ", record " + recordsIn;
    }

    /** Its state was restored before the task was created (a shuffle task taking over a queue), in {@code nanos}. */
    final void stateRestored(long nanos) {
        metrics.stateRestored(nanos);
    }

    /** The thread running a slice of this task now, or null between slices. */
    final Thread sliceThread() {
        return sliceThread;
    }

    /** When the current slice began ({@link System#nanoTime}); meaningful while {@link #sliceThread} is set. */
    final long sliceStartedNanos() {
        return sliceStartedNanos;
    }

    /** Records begun so far: changes with every record. */
    final long recordsStarted() {
        return recordsIn;
    }

    /** The watchdog's finding: stuck in a record, or null again once the task moves on. */
    final void stuck(StuckRecord record) {
        stuck = record;
    }

    final StuckRecord stuck() {
        return stuck;
    }

    /** Records not yet read from the input, for status (-1 unknown). */
    long lag() {
        return -1;
    }

    /** A snapshot for status; safe from any thread. */
    public TaskStatus status() {
        Throwable f = failure;
        StuckRecord s = status == TaskStatus.State.RUNNING ? stuck : null;
        return new TaskStatus(id, description(), s != null ? TaskStatus.State.STUCK : status, publishedIn,
                publishedOut, skipped(), lag(), lastCheckpointMillis,
                f == null ? null : String.valueOf(f.getMessage()), s, errors.deadLettered(), metrics.snapshot());
    }

    @Override
    public String toString() {
        return "Task " + id;
    }

    /** A function failed on a row: true when the task's error policy skips it (see {@link OperatorContext}). */
    abstract boolean skipFailedRow(Row row, FunctionException failure) throws Exception;

    /**
     * For tasks after an exchange: the row may have been made here (e.g. a window's result, fired by a watermark) and
     * no longer knows its source records, so the row itself is what the error names and dead-letters.
     */
    final boolean skipFailedRowAfterExchange(String input, Row row, FunctionException failure) throws Exception {
        String position = input + ", row " + row;
        if (errors.functionError(position, row, failure)) {
            return true;
        }
        throw RecordException.processing(services.jobName(), id, errors.tableName(), position, failure);
    }

    /**
     * The position of the input event being processed, which rows sent to a shuffle carry so that a receiver can
     * tell a replayed row from a new one; {@code -1} when there is none.
     */
    long inputPosition() {
        return -1;
    }

    /** The operators' view of this task. */
    private final class Context implements OperatorContext {
        @Override
        public Options parameters() {
            return services.config();
        }

        @Override
        public String jobName() {
            return services.jobName();
        }

        @Override
        public String taskId() {
            return id;
        }

        @Override
        public KeyedStateBackend stateBackend() {
            if (state == null) {
                long began = System.nanoTime();
                state = services.openState(id);
                if (restored != null && restored.stateDir() != null) {
                    metrics.stateRestored(System.nanoTime() - began);
                }
            }
            return state;
        }

        @Override
        public long restoredWatermark() {
            return restored == null ? Long.MIN_VALUE : restored.watermark();
        }

        @Override
        public void requestProcessingTime(long time) {
            if (time >= nextWakeup) {
                return;
            }
            nextWakeup = time;
            sendMailLater(() -> onProcessingTime(time), Math.max(0, time - System.currentTimeMillis()));
        }

        @Override
        public boolean skipFailedRow(Row row, FunctionException failure) throws Exception {
            return Task.this.skipFailedRow(row, failure);
        }

        @Override
        public SinkWriter sideOutput(TableDescriptor table) throws Exception {
            return services.sideOutput(table, new SinkWriterContext() {
                @Override
                public String taskId() {
                    return id;
                }

                @Override
                public int taskIndex() {
                    return Math.floorMod(id.hashCode(), 1 << 16);
                }
            });
        }

        @Override
        public LookupTable lookupTable(LookupJoinNode node)
                throws Exception {
            return services.dimensionTables().open(node);
        }
    }

    private void onProcessingTime(long scheduledFor) {
        if (scheduledFor != nextWakeup || status != TaskStatus.State.RUNNING) {
            return;
        }
        nextWakeup = Long.MAX_VALUE;
        try {
            long now = System.currentTimeMillis();
            for (Operator op : topology.operators()) {
                op.onProcessingTime(now);
            }
        } catch (Exception e) {
            throw new IllegalStateException("job " + services.jobName() + " task " + id
                    + ": processing-time timers failed", e);
        }
    }
}
