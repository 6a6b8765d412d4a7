package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.store.RawEntryVisitor;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.state.store.StateColumnFamily;
import dev.rsql.runtime.rocketmq.QueueRangeReader;
import org.apache.rocketmq.client.producer.MQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Makes one task's state durable in its state queue, as the incarnation (one ownership of the queue) that the
 * restore claimed. A {@link #checkpoint} appends the entries changed since the previous checkpoint (or, when due,
 * every entry: a full snapshot that becomes the new base), in messages of about {@link ChangelogSettings#messageBytes}
 * tagged with the incarnation and checkpoint, then the sink writers' stage messages ({@link StagedRows}), then a
 * {@link CommitRecord}. Messages are sent one at a time,
 * synchronously, each retried on transient failures, so they are stored in order; the checkpoint returns once the
 * commit record is.
 *
 * <p>Each message must land at the offset after the previous one, starting right after the restore's claim: then
 * every checkpoint of this incarnation follows from exactly the state it restored, whatever else happens to the
 * queue. A commit record that lands elsewhere names the offset it was written for, and restores ignore it. When a
 * message lands further on, what came in between decides: another incarnation's claim means the queue has a new
 * owner, and the writer throws {@link StateQueueConflictException}; anything else (the last write of an earlier owner
 * that had not yet noticed this one's claim, or a timed-out send of this writer stored after all) is left behind: the
 * writer writes the checkpoint again from there, as a full snapshot, so that no restore reads what came before.
 *
 * <p>Used from the task's thread only (like its backend). After a checkpoint failed the writer refuses further ones:
 * the changes it had drained are gone, so the task must restore its state again (a new incarnation).
 */
public final class StateChangelogWriter {

    private static final Logger LOG = LoggerFactory.getLogger(StateChangelogWriter.class);
    /** Writes of one checkpoint that land behind messages of nobody else's claim, before the writer gives up. */
    private static final int MAX_ATTEMPTS = 3;

    private final String where;
    private final MessageQueue queue;
    private final StateQueueSender sender;
    private final StoreStateBackend backend;
    private final ChangelogSettings settings;
    private final long incarnation;
    private final List<CommitRecord.PastIncarnation> history;
    private final ChangeBatch batch;
    /** Tells whether another incarnation claimed the queue in a range of offsets; null: any misplaced write fails. */
    private final ClaimCheck claims;

    /** The last commit record of the queue: restored, or written here. Null: none yet. */
    private CommitRecord last;
    private boolean wroteCheckpoint;
    private long nextOffset;
    private boolean failed;

    /**
     * A writer continuing from {@code restored}: its queue, backend, incarnation and last commit record.
     * {@code job} and {@code task} are for logs and errors; {@code producer} must be started and may be shared.
     */
    public StateChangelogWriter(String job, String task, MQProducer producer, RestoredState restored,
                                ChangelogSettings settings) {
        this(job, task, producer, restored, settings, null);
    }

    /** Whether an incarnation other than {@code incarnation} claimed {@code queue} at offsets {@code [from, to)}. */
    interface ClaimCheck {
        boolean claimedBetween(MessageQueue queue, long from, long to, long incarnation) throws IOException;
    }

    StateChangelogWriter(String job, String task, MQProducer producer, RestoredState restored,
                         ChangelogSettings settings, ClaimCheck claims) {
        this.claims = claims;
        if (!restored.backend().isTrackingChanges()) {
            throw new IllegalArgumentException("the state of task " + task + " does not track its changes");
        }
        this.queue = restored.queue();
        this.where = "job=" + job + " task=" + task + " queue=" + QueueRangeReader.describe(queue);
        this.sender = new StateQueueSender(producer, settings);
        this.backend = restored.backend();
        this.settings = settings;
        this.incarnation = restored.incarnation();
        this.last = restored.commit();
        this.history = last == null ? List.of() : last.historyAfter();
        this.nextOffset = restored.nextOffset();
        this.batch = new ChangeBatch(settings.messageBytes());
    }

    /** This writer's incarnation id. */
    public long incarnation() {
        return incarnation;
    }

    /** A checkpoint without stage messages: {@link #checkpoint(long, byte[], Map)}. */
    public CommitRecord checkpoint(long checkpointId, byte[] taskMeta) throws IOException {
        return checkpoint(checkpointId, taskMeta, Map.of());
    }

    /**
     * Writes checkpoint {@code checkpointId} (greater than this writer's previous ones) with the engine's
     * {@code taskMeta} and returns its commit record once stored. Blocks for the sends. {@code staged} holds sink
     * writers' chunks by writer name, one stage message each, written after the state and before the commit record
     * ({@link StagedRows}).
     *
     * @throws StateQueueConflictException if another writer appended to the queue
     * @throws IOException                 if a send failed for good; the checkpoint does not count
     */
    public CommitRecord checkpoint(long checkpointId, byte[] taskMeta, Map<String, List<byte[]>> staged)
            throws IOException {
        if (failed) {
            throw new IllegalStateException(where + ": an earlier checkpoint failed; restore the state again");
        }
        if (wroteCheckpoint && checkpointId <= last.checkpointId()) {
            throw new IllegalArgumentException(where + ": checkpoint " + checkpointId + " after checkpoint "
                    + last.checkpointId());
        }
        long start = System.nanoTime();
        boolean snapshot = last == null || settings.snapshotDue(last);
        failed = true; // until the commit record is stored
        for (int attempt = 1; ; attempt++) {
            try {
                CommitRecord record = write(checkpointId, taskMeta, staged, snapshot, start);
                failed = false;
                return record;
            } catch (Misplaced m) {
                if (claims == null || attempt == MAX_ATTEMPTS
                        || claims.claimedBetween(queue, m.expected, m.stored, incarnation)) {
                    throw new StateQueueConflictException(where + ": state message stored at offset " + m.stored
                            + " instead of " + m.expected + ": another instance claimed the state queue; incarnation "
                            + CommitRecord.hex(incarnation) + " stops writing");
                }
                LOG.warn("{}: a state message landed at offset {} instead of {} (an earlier owner's last write, or a "
                        + "send retried after a timeout); writing checkpoint {} again after it, as a full snapshot",
                        where, m.stored, m.expected, checkpointId);
                nextOffset = m.stored + 1;
                snapshot = true;
            }
        }
    }

    private CommitRecord write(long checkpointId, byte[] taskMeta, Map<String, List<byte[]>> staged,
                               boolean snapshot, long start) throws IOException {
        CheckpointOutput out = new CheckpointOutput(
                snapshot ? ChangeBatch.Kind.SNAPSHOT : ChangeBatch.Kind.CHANGES, checkpointId);
        if (snapshot) {
            backend.discardChanges();
            backend.forEachEntry(out);
        } else {
            backend.drainChanges(out);
        }
        out.finish();
        long stageOffset = -1;
        int sequence = 0;
        for (Map.Entry<String, List<byte[]>> e : staged.entrySet()) {
            for (byte[] chunk : e.getValue()) {
                long offset = send(StageMessage.encode(incarnation, checkpointId, sequence++, e.getKey(), chunk),
                        StageMessage.TAG);
                if (stageOffset < 0) {
                    stageOffset = offset;
                }
            }
        }
        // written for the offset after this checkpoint's last message: stored elsewhere, restores ignore it
        CommitRecord record = snapshot
                ? new CommitRecord(incarnation, checkpointId, nextOffset, out.firstOffset, out.bytes, 0, 0,
                        taskMeta, history, stageOffset)
                : new CommitRecord(incarnation, checkpointId, nextOffset, last.baseOffset(), last.baseBytes(),
                        last.bytesSinceBase() + out.bytes, last.checkpointsSinceBase() + 1, taskMeta, history,
                        stageOffset);
        long commitOffset = send(record.toBytes(), CommitRecord.TAG);
        last = record;
        wroteCheckpoint = true;
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (snapshot) {
            LOG.info("{}: checkpoint {} wrote a full snapshot: {} entries, {} bytes in {} messages, offsets {} to {}, "
                    + "{} ms", where, checkpointId, out.entries, out.bytes, out.messages, out.firstOffset,
                    commitOffset, millis);
        } else {
            LOG.debug("{}: checkpoint {} wrote {} changed entries, {} bytes in {} messages, commit at offset {}, {} ms",
                    where, checkpointId, out.entries, out.bytes, out.messages, commitOffset, millis);
        }
        return record;
    }

    /** Sends one message and returns its offset, which must be the next one. */
    private long send(byte[] body, String tag) throws IOException {
        long offset = sender.send(queue, tag, body, where);
        if (offset != nextOffset) {
            throw new Misplaced(nextOffset, offset);
        }
        nextOffset = offset + 1;
        return offset;
    }

    /** A message stored at another offset than the next one. */
    private static final class Misplaced extends IOException {
        final long expected;
        final long stored;

        Misplaced(long expected, long stored) {
            super("stored at " + stored + " instead of " + expected);
            this.expected = expected;
            this.stored = stored;
        }
    }

    /** Batches one checkpoint's entries into messages and sends each when full. */
    private final class CheckpointOutput implements RawEntryVisitor {
        private final ChangeBatch.Kind kind;
        private final long checkpointId;
        private int sequence;
        long firstOffset = -1;
        long bytes;
        int messages;
        long entries;

        CheckpointOutput(ChangeBatch.Kind kind, long checkpointId) {
            this.kind = kind;
            this.checkpointId = checkpointId;
            batch.start(kind, incarnation, checkpointId, 0);
        }

        @Override
        public void visit(StateColumnFamily cf, byte[] key, byte[] value) throws IOException {
            if (batch.entries() > 0 && batch.size() + ChangeBatch.entrySize(key, value) > settings.messageBytes()) {
                flush();
            }
            batch.add(cf, key, value);
            entries++;
        }

        /** Sends what is left; a snapshot always sends a message, since the base offset points at it. */
        void finish() throws IOException {
            if (batch.entries() > 0 || (kind == ChangeBatch.Kind.SNAPSHOT && messages == 0)) {
                flush();
            }
        }

        private void flush() throws IOException {
            byte[] body = batch.body();
            long offset = send(body, ChangeBatch.TAG);
            if (firstOffset < 0) {
                firstOffset = offset;
            }
            bytes += body.length;
            messages++;
            batch.start(kind, incarnation, checkpointId, ++sequence);
        }
    }
}
