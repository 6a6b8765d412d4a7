package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.operator.SinkOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one shard and runs the operators its rows flow through. A task is driven by one worker thread at a time:
 * it runs in slices on the shared worker pool, and everything else (checkpoints, stop requests) reaches it as mail
 * executed between records, so its operators, readers and writers never need locks.
 */
public final class Task implements ReaderOutput {

    private static final Logger LOG = LoggerFactory.getLogger(Task.class);

    /** Records per {@link ShardReader#read} call. */
    private static final int READ_BATCH = 256;
    /** A slice yields after this many records or {@link #SLICE_NANOS}, so tasks share the workers fairly. */
    private static final int SLICE_RECORDS = 8192;
    private static final long SLICE_NANOS = 20_000_000L;

    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int RUNNING = 2;
    private static final int RUNNING_WOKEN = 3;
    private static final int TERMINATED = 4;

    /** Where a task reports that it ended. */
    interface Listener {
        void taskFinished(Task task);

        void taskFailed(Task task, Throwable cause);
    }

    private final String id;
    private final String jobName;
    private final ShardReader reader;
    private final TaskTopology topology;
    private final Output head;
    private final RecordErrorHandler errorHandler;
    private final Executor executor;
    private final Listener listener;
    private final Queue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final AtomicInteger schedule = new AtomicInteger(IDLE);
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    // Owned by the thread running the task.
    private boolean stopRequested;
    private long recordsIn;
    private long committedPosition = -1;

    // Published once per slice for status readers on other threads.
    private volatile TaskStatus.State state = TaskStatus.State.RUNNING;
    private volatile long publishedIn;
    private volatile long publishedOut;
    private volatile long lastCheckpointMillis;
    private volatile Throwable failure;

    Task(String id, String jobName, ShardReader reader, TaskTopology topology, RecordErrorHandler errorHandler,
         OperatorContext operatorContext, Executor executor, Listener listener) throws Exception {
        this.id = id;
        this.jobName = jobName;
        this.reader = reader;
        this.topology = topology;
        this.head = topology.head();
        this.errorHandler = errorHandler;
        this.executor = executor;
        this.listener = listener;
        for (Operator op : topology.operators()) {
            op.open(operatorContext);
        }
        reader.setAvailabilityListener(this::wakeUp);
    }

    public String id() {
        return id;
    }

    public ShardReader reader() {
        return reader;
    }

    /** Completes when the task has finished, stopped or failed. */
    public CompletableFuture<Void> terminated() {
        return terminated;
    }

    void start() {
        LOG.info("job={} task={} started reading {}", jobName, id, reader.description());
        wakeUp();
    }

    /** Flush the sinks and commit the shard position at the next record boundary. */
    void requestCheckpoint() {
        sendMail(this::checkpoint);
    }

    /** Finish the records in hand, flush, commit and close. */
    void requestStop() {
        sendMail(() -> stopRequested = true);
    }

    private void sendMail(Runnable mail) {
        mailbox.add(mail);
        wakeUp();
    }

    /** Schedules a slice unless one is queued or running; a wake-up during a slice makes it run once more. */
    private void wakeUp() {
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
            executor.execute(this::runSlice);
        } catch (RejectedExecutionException e) {
            schedule.set(TERMINATED);
            terminate(TaskStatus.State.FAILED, new IllegalStateException("worker pool shut down", e));
        }
    }

    private void runSlice() {
        schedule.set(RUNNING);
        boolean more;
        try {
            more = slice();
        } catch (Throwable t) {
            fail(t);
            return;
        } finally {
            publishedIn = recordsIn;
            publishedOut = sinkRowsWritten();
        }
        if (state != TaskStatus.State.RUNNING) {
            return;
        }
        if (more || !schedule.compareAndSet(RUNNING, IDLE)) {
            schedule.set(QUEUED);
            submit();
        }
    }

    /** Runs mail and then records for a bounded time. Returns true when there is more to do right away. */
    private boolean slice() throws Exception {
        runMail();
        if (stopRequested) {
            finish(false);
            return false;
        }
        long deadline = System.nanoTime() + SLICE_NANOS;
        int total = 0;
        while (total < SLICE_RECORDS) {
            int n = reader.read(this, READ_BATCH);
            if (n == 0) {
                break;
            }
            total += n;
            if (!mailbox.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
        }
        if (total == 0 && reader.isEndOfInput()) {
            finish(true);
            return false;
        }
        return total > 0 || !mailbox.isEmpty();
    }

    private void runMail() {
        Runnable mail;
        while ((mail = mailbox.poll()) != null) {
            mail.run();
        }
    }

    @Override
    public void emit(long position, Object[] fields) throws Exception {
        emit(position, Row.insert(fields));
    }

    @Override
    public void emit(long position, Row row) throws Exception {
        recordsIn++;
        try {
            head.emit(row);
        } catch (Exception e) {
            throw RecordException.processing(jobName, id, reader.describePosition(position), e);
        }
    }

    @Override
    public void decodeError(long position, byte[] payload, Exception cause) throws Exception {
        errorHandler.decodeError(reader.describePosition(position), payload, cause);
    }

    private void checkpoint() {
        if (state != TaskStatus.State.RUNNING) {
            return;
        }
        try {
            long position = reader.position();
            for (Operator op : topology.operators()) {
                op.flush();
            }
            errorHandler.flush();
            if (position != committedPosition) {
                reader.commit(position);
                committedPosition = position;
            }
            lastCheckpointMillis = System.currentTimeMillis();
        } catch (Exception e) {
            throw new CheckpointException("job " + jobName + " task " + id + ": checkpoint at "
                    + reader.describePosition(reader.position()) + " failed", e);
        }
    }

    private void finish(boolean endOfInput) throws Exception {
        if (endOfInput) {
            for (Operator op : topology.operators()) {
                op.endOfInput();
            }
        }
        checkpoint();
        for (Operator op : topology.operators()) {
            op.close();
        }
        errorHandler.close();
        reader.close();
        LOG.info("job={} task={} {} at {}: {} records in, {} rows out, {} skipped", jobName, id,
                endOfInput ? "finished" : "stopped", reader.describePosition(reader.position()), recordsIn,
                sinkRowsWritten(), errorHandler.skipped());
        terminate(TaskStatus.State.FINISHED, null);
    }

    private void fail(Throwable cause) {
        LOG.error("job={} task={} failed reading {}; position stays at the last checkpoint ({})", jobName, id,
                reader.description(), committedPosition < 0 ? "none" : reader.describePosition(committedPosition), cause);
        for (Operator op : topology.operators()) {
            try {
                op.close();
            } catch (Exception e) {
                cause.addSuppressed(e);
            }
        }
        try {
            errorHandler.close();
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
        try {
            reader.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
        terminate(TaskStatus.State.FAILED, cause);
    }

    private void terminate(TaskStatus.State finalState, Throwable cause) {
        failure = cause;
        state = finalState;
        schedule.set(TERMINATED);
        publishedIn = recordsIn;
        if (cause == null) {
            listener.taskFinished(this);
        } else {
            listener.taskFailed(this, cause);
        }
        terminated.complete(null);
    }

    private long sinkRowsWritten() {
        long n = 0;
        for (SinkOperator op : topology.sinkOperators()) {
            n += op.written();
        }
        return n;
    }

    /** A snapshot for status; safe from any thread. */
    public TaskStatus status() {
        return new TaskStatus(id, reader.description(), state, publishedIn, publishedOut, errorHandler.skipped(),
                reader.lag(), lastCheckpointMillis, failure == null ? null : String.valueOf(failure.getMessage()));
    }

    @Override
    public String toString() {
        return "Task " + id;
    }
}
