package dev.rsql.runtime.exec;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.exec.shuffle.ShuffleCheckpoint;
import dev.rsql.runtime.exec.shuffle.ShuffleCodec;
import dev.rsql.runtime.exec.shuffle.ShuffleInput;
import dev.rsql.runtime.graph.FunctionException;
import dev.rsql.runtime.operator.SinkOperator;
import dev.rsql.runtime.rocketmq.QueueBackpressure;
import dev.rsql.runtime.state.changelog.StateChangelogWriter;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A task of a distributed job reading one shuffle queue: the keyed, stateful part. Its state was restored from its
 * state queue before it reads anything. A checkpoint (its own, no barrier) flushes what it produced, writes the
 * state's changes, the sinks' rows of the checkpoint ({@link TaskSinkStages}) and a commit record — the shuffle
 * offset to resume from, every channel's last sequence, the watermark — and then commits the sinks' transaction of
 * that checkpoint, the dead letters' included. A row a channel sends again after a crash
 * upstream is dropped by its sequence ({@link ShuffleInput}).
 */
final class ShuffleTask extends Task implements ShuffleInput.Handler {

    private static final Logger LOG = LoggerFactory.getLogger(ShuffleTask.class);

    /** Messages polled for the task but not yet read, beyond which the poll thread waits ({@link QueueBackpressure}). */
    static final int INBOX_LIMIT = 64;

    /** How the task's shuffle queue is fed and acknowledged. */
    interface QueueControl {
        void pause();

        void resume();

        /** Stores the offset as the group's (for monitoring; the commit record is what restores use). */
        void commit(long offset);
    }

    private final String description;
    private final ShuffleInput input;
    private final StateChangelogWriter changelog;
    private final QueueControl queue;
    private final TaskTransaction transaction;
    private final TaskSinkStages stages;
    private final ConcurrentLinkedQueue<MessageExt> inbox = new ConcurrentLinkedQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final QueueBackpressure backpressure;

    // Owned by the task thread.
    private long nextOffset;
    private long currentPosition = ShuffleCodec.UNSEQUENCED;
    private volatile long publishedOffset;
    private volatile long maxOffset = -1;

    /** @param restored the task's checkpoint as its commit record holds it */
    ShuffleTask(String id, String description, TaskServices services, TaskTopology topology, ShuffleInput input,
                ShuffleCheckpoint restored, StateChangelogWriter changelog, TaskTransaction transaction,
                TaskSinkStages stages, QueueControl queue, RecordErrorHandler errors) {
        super(id, services, topology, errors);
        this.description = description;
        this.input = input;
        this.changelog = changelog;
        this.queue = queue;
        this.nextOffset = restored.nextOffset();
        this.publishedOffset = nextOffset;
        this.transaction = transaction;
        this.stages = stages;
        this.backpressure = new QueueBackpressure(() -> buffered.get() >= INBOX_LIMIT && isRunning(),
                () -> buffered.get() <= INBOX_LIMIT / 2, queue::pause, queue::resume, QueueBackpressure.ROOM_WAIT);
    }

    /** The incarnation (one ownership of the state queue) the task's checkpoints belong to. */
    long incarnation() {
        return changelog.incarnation();
    }

    /** The last checkpoint whose commit record is stored (0: none yet in this incarnation). */
    long committedCheckpoint() {
        return transaction.committedCheckpoint();
    }

    /**
     * Takes messages of the task's queue, in offset order (from the poll thread); returns once the inbox has room for
     * more, or with the queue paused.
     */
    void offer(List<MessageExt> messages) {
        String max = messages.get(messages.size() - 1).getProperty(MessageConst.PROPERTY_MAX_OFFSET);
        if (max != null) {
            maxOffset = Long.parseLong(max);
        }
        inbox.addAll(messages);
        buffered.addAndGet(messages.size());
        wakeUp();
        backpressure.awaitRoom();
    }

    @Override
    String description() {
        return description;
    }

    @Override
    int readInput(int budget) throws Exception {
        int n = 0;
        MessageExt m;
        while (n < budget && (m = inbox.poll()) != null) {
            input.accept(m.getQueueOffset(), m.getBody(), this);
            nextOffset = m.getQueueOffset() + 1;
            n++;
        }
        if (n > 0) {
            buffered.addAndGet(-n);
            backpressure.taken();
        }
        return n;
    }

    @Override
    public void row(long inputPosition, Row row) throws Exception {
        recordsIn++;
        currentPosition = inputPosition;
        head.emit(row);
    }

    @Override
    public void watermark(long watermark) throws Exception {
        head.emitWatermark(watermark);
    }

    /** Rows the task emits now carry the position of the last input row, also when a watermark fired them. */
    @Override
    long inputPosition() {
        return currentPosition;
    }

    @Override
    boolean inputEnded() {
        return false;
    }

    @Override
    boolean endOfInputReached() {
        return false;
    }

    @Override
    long position() {
        return nextOffset;
    }

    @Override
    long currentWatermark() {
        return input.watermark();
    }

    @Override
    void beforeClose(boolean endOfInput) {
        if (input.duplicatesDropped() > 0) {
            LOG.info("job={} task={}: dropped {} rows their channels had sent before", services.jobName(), id,
                    input.duplicatesDropped());
        }
    }

    /**
     * Writes the state, the staged sink rows and the commit record, then makes the sinks' rows of this checkpoint
     * visible. The checkpoint ids are the task's own (the changelog wants them increasing per incarnation), whatever
     * the trigger said.
     */
    @Override
    void persist(long ignored, long position) throws Exception {
        long id = transaction.checkpointId();
        String committing = transaction.current();
        changelog.checkpoint(id, new ShuffleCheckpoint(position, input.watermark(), input.snapshot()).toBytes(),
                stages.stage(committing));
        transaction.committed(id);
        for (SinkOperator sink : topology.sinkOperators()) {
            sink.commit(committing);
        }
        errors.commit(committing);
        publishedOffset = position;
        queue.commit(position);
        LOG.debug("job={} task={} checkpoint {} at offset {}", services.jobName(), this.id, id, position);
    }

    @Override
    boolean skipFailedRow(Row row, FunctionException failure) throws Exception {
        return skipFailedRowAfterExchange(description, row, failure);
    }

    /** Messages of the queue after the last checkpoint, as of the last fetch (-1 before any). */
    @Override
    long lag() {
        long max = maxOffset;
        return max < 0 ? -1 : Math.max(0, max - publishedOffset);
    }
}
