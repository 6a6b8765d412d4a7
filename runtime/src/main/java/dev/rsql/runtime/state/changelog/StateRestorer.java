package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.store.StateStoreFactory;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.rocketmq.QueueRangeReader;
import org.apache.rocketmq.client.producer.MQProducer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Rebuilds a task's state from its state queue, as a new incarnation of the task. It first appends a claim (tag
 * {@link #CLAIM_TAG}): its offset marks the end of what earlier owners wrote (the broker's end offset may lag behind
 * messages just stored), and the incarnation's writer must continue right after it. Then it finds the last commit
 * record before the claim by reading backwards (only commit records: a crash may have left a checkpoint's messages
 * after it), and reads forward from that record's base snapshot up to it, applying in offset order, tombstones
 * included, the entries of every checkpoint whose commit record lies in that range. Entries of a checkpoint without a
 * commit record (cut short by a crash) are skipped; nothing before the base snapshot is read. The last checkpoint's
 * stage messages, if any, come back with the state ({@link StagedRows}). A commit record stored
 * past the offset it was written for does not count ({@link CommitRecord#countsAt}): its writer had been fenced off,
 * by this restore's claim, say, and the next incarnation did not restore that checkpoint.
 *
 * <p>One restorer (one pull consumer) serves every task of a process; {@link #restore} blocks its caller and may run
 * on several threads at once for different queues.
 */
public final class StateRestorer implements AutoCloseable, StateChangelogWriter.ClaimCheck {

    /** The message tag of claims. */
    public static final String CLAIM_TAG = "claim";
    private static final Logger LOG = LoggerFactory.getLogger(StateRestorer.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Offsets searched for the last commit record at first; the span doubles while none is found. */
    static final long FIRST_SEARCH_SPAN = 64;

    private final MQProducer producer;
    private final StateQueueSender sender;
    private final QueueRangeReader reader;
    private final ChangelogSettings settings;

    /**
     * Claims with {@code producer} (started, may be shared; not closed here) and reads with a pull consumer of its own
     * in {@code consumerGroup} (it commits no offsets; the group must exist if the brokers do not create groups
     * automatically) as client instance {@code instanceName}; {@code rpcHook} may be null.
     */
    public StateRestorer(MQProducer producer, String namesrv, String consumerGroup, String instanceName,
                         RPCHook rpcHook, ChangelogSettings settings) throws IOException {
        this.producer = producer;
        this.sender = new StateQueueSender(producer, settings);
        this.reader = new QueueRangeReader(namesrv, consumerGroup, instanceName, rpcHook, settings.requestTimeout(),
                settings.retryTimeout());
        this.settings = settings;
    }

    /**
     * Opens the state of the task owning {@code queue} in {@code workingDir} (discarding whatever is there) and fills
     * it from the queue. {@code job} and {@code task} are for logs and errors.
     */
    public RestoredState restore(String job, String task, MessageQueue queue, Path workingDir, int keyGroups,
                                 StateStoreFactory stores) throws IOException {
        long start = System.nanoTime();
        String where = "job=" + job + " task=" + task + " queue=" + QueueRangeReader.describe(queue);
        Progress progress = new Progress();
        long incarnation = RANDOM.nextLong();
        long claim = sender.send(queue, CLAIM_TAG, CommitRecord.hex(incarnation).getBytes(StandardCharsets.UTF_8),
                where);
        awaitReadable(queue, claim, where);
        Located last = findLastCommit(queue, claim, progress, where);
        StoreStateBackend backend = StoreStateBackend.open(stores.open(workingDir, null), keyGroups, null);
        StagedRows staged = null;
        try {
            if (last != null) {
                replay(queue, last, backend, progress, where);
                backend.checkRestoredMetadata("state queue " + QueueRangeReader.describe(queue));
                staged = staged(queue, last, claim, progress, where);
            }
            backend.enableChangeTracking();
        } catch (IOException | RuntimeException | Error e) {
            backend.close();
            throw e;
        }
        RestoreStats stats = new RestoreStats(last == null ? -1 : last.offset, progress.firstStateOffset,
                progress.messages, progress.bytes, progress.entries, progress.checkpoints,
                (System.nanoTime() - start) / 1_000_000);
        if (last == null) {
            LOG.info("{}: incarnation {} claimed the state queue at offset {}; no state before it, starting empty",
                    where, CommitRecord.hex(incarnation), claim);
            return new RestoredState(queue, backend, null, incarnation, claim + 1, stats, null);
        }
        LOG.info("{}: incarnation {} claimed the state queue at offset {} and restored checkpoint {} of incarnation "
                        + "{} from offsets {} to {}: {} checkpoints, {} entries, {} messages, {} bytes in {} ms", where,
                CommitRecord.hex(incarnation), claim, last.record.checkpointId(),
                CommitRecord.hex(last.record.incarnation()), last.record.baseOffset(), stats.commitOffset(),
                stats.checkpointsApplied(), stats.entriesApplied(), stats.messagesRead(), stats.bytesRead(),
                stats.millis());
        return new RestoredState(queue, backend, last.record, incarnation, claim + 1, stats, staged);
    }

    /**
     * Waits until the broker serves reads up to {@code offset}: it indexes a stored message for readers shortly after
     * acknowledging it.
     */
    private void awaitReadable(MessageQueue queue, long offset, String where) throws IOException {
        long deadline = System.nanoTime() + settings.retryTimeout().toNanos();
        for (long pauseMillis = 1; reader.maxOffset(queue) <= offset; pauseMillis = Math.min(50, pauseMillis * 2)) {
            if (System.nanoTime() > deadline) {
                throw new IOException(where + ": the broker did not make offset " + offset + " of the state queue"
                        + " readable within " + settings.retryTimeout().toMillis() + " ms");
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException(where + ": restoring was interrupted");
            }
        }
    }

    /** The commit record with the highest offset below {@code end} that counts, or null. */
    private Located findLastCommit(MessageQueue queue, long end, Progress progress, String where)
            throws IOException {
        long min = reader.minOffset(queue);
        long span = FIRST_SEARCH_SPAN;
        Located[] found = new Located[1];
        List<Located> ignored = new ArrayList<>();
        for (long hi = end; hi > min && found[0] == null; hi = Math.max(min, hi - span), span *= 2) {
            reader.read(queue, CommitRecord.TAG, Math.max(min, hi - span), hi, m -> {
                progress.read(m);
                Located commit = new Located(m.getQueueOffset(), m.getStoreTimestamp(), commitRecord(m, where));
                if (commit.counts()) {
                    found[0] = commit;
                } else {
                    ignored.add(commit);
                }
            });
        }
        for (Located commit : ignored) {
            if (found[0] == null || commit.offset > found[0].offset) { // the replay reports those before
                logIgnored(commit, where);
            }
        }
        return found[0];
    }

    private void replay(MessageQueue queue, Located last, StoreStateBackend backend, Progress progress,
                        String where) throws IOException {
        long base = last.record.baseOffset();
        Set<CheckpointKey> committed = new HashSet<>();
        reader.read(queue, CommitRecord.TAG, base, last.offset + 1, m -> {
            progress.read(m);
            Located commit = new Located(m.getQueueOffset(), m.getStoreTimestamp(), commitRecord(m, where));
            if (commit.counts()) {
                committed.add(new CheckpointKey(commit.record.incarnation(), commit.record.checkpointId()));
            } else {
                logIgnored(commit, where);
            }
        });
        Map<CheckpointKey, Integer> nextSequence = new HashMap<>();
        reader.read(queue, ChangeBatch.TAG, base, last.offset, m -> {
            progress.read(m);
            ChangeBatch.Received batch = parse(m, where, ChangeBatch::parse);
            CheckpointKey checkpoint = new CheckpointKey(batch.incarnation(), batch.checkpointId());
            if (progress.firstStateOffset < 0) {
                progress.firstStateOffset = m.getQueueOffset();
                if (m.getQueueOffset() != base || batch.kind() != ChangeBatch.Kind.SNAPSHOT || batch.sequence() != 0
                        || !committed.contains(checkpoint)) {
                    throw new IOException(where + ": the state queue holds no committed snapshot at base offset "
                            + base + " (first state message at " + m.getQueueOffset() + ": " + batch.kind()
                            + " #" + batch.sequence() + ")");
                }
            }
            if (!committed.contains(checkpoint)) {
                return; // cut short before its commit record
            }
            int expected = nextSequence.getOrDefault(checkpoint, 0);
            if (!isNext(batch.sequence(), expected, m, "message", batch.incarnation(), batch.checkpointId(), where)) {
                return;
            }
            if (expected == 0) {
                progress.checkpoints++;
            }
            nextSequence.put(checkpoint, expected + 1);
            try {
                batch.forEachEntry((cf, key, value) -> {
                    backend.restoreEntry(cf, key, value);
                    progress.entries++;
                });
            } catch (StateException e) {
                throw malformed(m, where, e);
            }
        });
        if (progress.firstStateOffset < 0) {
            throw new IOException(where + ": the state queue holds no snapshot between base offset " + base
                    + " and the last commit record at " + last.offset);
        }
    }

    /**
     * The stage messages of the last checkpoint (null if it has none), and how long before the claim at offset
     * {@code claim} its commit record was stored.
     */
    private StagedRows staged(MessageQueue queue, Located last, long claim, Progress progress, String where)
            throws IOException {
        CommitRecord record = last.record;
        if (record.stageOffset() < 0) {
            return null;
        }
        Map<String, List<byte[]>> byOwner = new LinkedHashMap<>();
        int[] next = {0};
        reader.read(queue, StageMessage.TAG, record.stageOffset(), last.offset, m -> {
            progress.read(m);
            StageMessage.Received s = parse(m, where, StageMessage::parse);
            if (s.incarnation() != record.incarnation() || s.checkpointId() != record.checkpointId()
                    || !isNext(s.sequence(), next[0], m, "stage message", s.incarnation(), s.checkpointId(), where)) {
                return; // another checkpoint's, or stored twice
            }
            next[0]++;
            byOwner.computeIfAbsent(s.owner(), o -> new ArrayList<>()).add(s.chunk());
        });
        if (next[0] == 0) {
            throw new IOException(where + ": no stage message of checkpoint " + record.checkpointId()
                    + " between offsets " + record.stageOffset() + " and " + last.offset);
        }
        long[] claimed = {last.storeTimestamp};
        reader.read(queue, CLAIM_TAG, claim, claim + 1, m -> claimed[0] = m.getStoreTimestamp());
        return new StagedRows(byOwner, last.storeTimestamp, Math.max(0, claimed[0] - last.storeTimestamp));
    }

    /**
     * Whether message {@code m}, number {@code sequence} of its checkpoint, is the one expected next: false for one
     * stored twice (a send retried after a timeout had arrived after all); one further on means one is missing.
     */
    private static boolean isNext(int sequence, int expected, MessageExt m, String what, long incarnation,
                                  long checkpointId, String where) throws IOException {
        if (sequence > expected) {
            throw new IOException(where + ": " + what + " #" + expected + " of checkpoint " + checkpointId
                    + " of incarnation " + CommitRecord.hex(incarnation) + " is missing (found #" + sequence
                    + " at offset " + m.getQueueOffset() + ")");
        }
        return sequence == expected;
    }

    private static CommitRecord commitRecord(MessageExt m, String where) {
        return parse(m, where, CommitRecord::fromBytes);
    }

    /** The incarnation a claim names. */
    private static long claimer(MessageExt m, String where) {
        return parse(m, where, body -> {
            try {
                return Long.parseUnsignedLong(new String(body, StandardCharsets.UTF_8), 16);
            } catch (NumberFormatException e) {
                throw new StateException("a claim that names no incarnation");
            }
        });
    }

    /**
     * Decodes a message read from the queue: bytes that do not fit its format (a broken or foreign writer, crafted
     * messages) fail the restore as state read from disk would, naming the queue and offset.
     */
    private static <T> T parse(MessageExt m, String where, Function<byte[], T> decoder) {
        try {
            return decoder.apply(m.getBody());
        } catch (StateException e) {
            throw malformed(m, where, e);
        }
    }

    private static StateException malformed(MessageExt m, String where, StateException e) {
        return new StateException(where + ": malformed " + m.getTags() + " message at offset " + m.getQueueOffset()
                + ": " + e.getMessage(), e);
    }

    private static void logIgnored(Located commit, String where) {
        LOG.warn("{}: ignoring the commit record of checkpoint {} of incarnation {} at offset {}: written for"
                + " offset {}, it came after another writer's message, its writer fenced off", where,
                commit.record.checkpointId(), CommitRecord.hex(commit.record.incarnation()), commit.offset,
                commit.record.offset());
    }

    /**
     * The writer of the incarnation {@code restored} claimed: when one of its messages lands further on than it should,
     * it asks this restorer whether another incarnation claimed the queue in between.
     */
    public StateChangelogWriter writer(String job, String task, RestoredState restored) {
        return new StateChangelogWriter(job, task, producer, restored, settings, this);
    }

    @Override
    public boolean claimedBetween(MessageQueue queue, long from, long to, long incarnation) throws IOException {
        awaitReadable(queue, to - 1, "queue=" + QueueRangeReader.describe(queue));
        boolean[] claimed = new boolean[1];
        reader.read(queue, CLAIM_TAG, from, to, m -> claimed[0] |= claimer(m, "queue="
                + QueueRangeReader.describe(queue)) != incarnation);
        return claimed[0];
    }

    /**
     * What became of checkpoint {@code checkpointId} of {@code incarnation} of the state queue, read backwards from
     * its end over claims and commit records only (in growing spans), newest first: the incarnation's own commit
     * record for it or a later one says committed; a record of a later incarnation lists in its history how far this
     * one got; a claim by another incarnation after this one's last word says abandoned. A commit record stored after
     * another writer's message does not count (its writer was fenced off). An incarnation older than a commit
     * record's history ({@link CommitRecord#HISTORY_SIZE}) counts as abandoned.
     */
    public CheckpointOutcome checkpointOutcome(MessageQueue queue, long incarnation, long checkpointId)
            throws IOException {
        long min = reader.minOffset(queue);
        long end = reader.maxOffset(queue);
        boolean claimedSince = false;
        long span = FIRST_SEARCH_SPAN;
        for (long hi = end; hi > min; hi = Math.max(min, hi - span), span *= 2) {
            long lo = Math.max(min, hi - span);
            List<MessageExt> facts = new ArrayList<>();
            reader.read(queue, CommitRecord.TAG, lo, hi, facts::add);
            reader.read(queue, CLAIM_TAG, lo, hi, facts::add);
            facts.sort((a, b) -> Long.compare(b.getQueueOffset(), a.getQueueOffset()));
            for (MessageExt m : facts) {
                if (CLAIM_TAG.equals(m.getTags())) {
                    long claimer = claimer(m, "queue=" + QueueRangeReader.describe(queue));
                    if (claimer == incarnation) {
                        return claimedSince ? CheckpointOutcome.ABANDONED : CheckpointOutcome.OPEN;
                    }
                    claimedSince = true;
                    continue;
                }
                CommitRecord c = commitRecord(m, "queue=" + QueueRangeReader.describe(queue));
                if (!c.countsAt(m.getQueueOffset())) {
                    continue;
                }
                if (c.incarnation() == incarnation) {
                    if (c.checkpointId() >= checkpointId) {
                        return CheckpointOutcome.COMMITTED;
                    }
                    return claimedSince ? CheckpointOutcome.ABANDONED : CheckpointOutcome.OPEN;
                }
                for (CommitRecord.PastIncarnation p : c.history()) {
                    if (p.incarnation() == incarnation) {
                        return p.lastCheckpointId() >= checkpointId ? CheckpointOutcome.COMMITTED
                                : CheckpointOutcome.ABANDONED;
                    }
                }
                // A later incarnation restored from a state this one never added to.
                return CheckpointOutcome.ABANDONED;
            }
        }
        return CheckpointOutcome.OPEN;
    }

    @Override
    public void close() {
        reader.close();
    }

    private record Located(long offset, long storeTimestamp, CommitRecord record) {

        boolean counts() {
            return record.countsAt(offset);
        }
    }

    private record CheckpointKey(long incarnation, long checkpointId) {
    }

    /** Counters of one restore. */
    private static final class Progress {
        long firstStateOffset = -1;
        long messages;
        long bytes;
        long entries;
        int checkpoints;

        void read(MessageExt m) {
            messages++;
            bytes += m.getStoreSize();
        }
    }
}
