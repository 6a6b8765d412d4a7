package dev.rsql.runtime.state.changelog;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.state.StateException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The last message of a checkpoint in a state queue: stored at the offset its writer wrote it for ({@link #countsAt}),
 * it makes the checkpoint's entries before it count. Tagged {@link #TAG} so that finding the last one reads no state
 * entries.
 *
 * @param incarnation          the writer (one ownership of the queue) that wrote the checkpoint
 * @param checkpointId         the checkpoint, increasing within an incarnation
 * @param offset               the queue offset its writer wrote it for: right after the writer's previous message
 * @param baseOffset           queue offset of the first message of the full snapshot this state builds on
 * @param baseBytes            body bytes of that snapshot
 * @param bytesSinceBase       body bytes of the change messages written after the snapshot, up to this checkpoint
 * @param checkpointsSinceBase checkpoints after the snapshot's, up to this one (0: this checkpoint is the snapshot)
 * @param taskMeta             the engine's bytes (positions, channel table, watermark, sink transactions), opaque here
 * @param history              earlier incarnations of the queue, newest first, at most {@link #HISTORY_SIZE}: how far
 *                             each got before the next one restored from it
 * @param stageOffset          queue offset of the checkpoint's first stage message ({@link StagedRows}), -1 if none
 */
public record CommitRecord(long incarnation, long checkpointId, long offset, long baseOffset, long baseBytes,
                           long bytesSinceBase, int checkpointsSinceBase, byte[] taskMeta,
                           List<PastIncarnation> history, long stageOffset) {

    /** The message tag of commit records. */
    public static final String TAG = "commit";
    public static final int HISTORY_SIZE = 8;
    /** Format 1 lacks the stage offset; both are read. */
    private static final byte FORMAT = 2;

    /** An incarnation that ended (or was overtaken): its last checkpoint that the next incarnation restored. */
    public record PastIncarnation(long incarnation, long lastCheckpointId) {
    }

    public CommitRecord {
        taskMeta = taskMeta.clone();
        history = List.copyOf(history);
        if (history.size() > HISTORY_SIZE) {
            throw new IllegalArgumentException("history of " + history.size() + " incarnations, at most "
                    + HISTORY_SIZE);
        }
    }

    /** A record of a checkpoint without stage messages. */
    public CommitRecord(long incarnation, long checkpointId, long offset, long baseOffset, long baseBytes,
                        long bytesSinceBase, int checkpointsSinceBase, byte[] taskMeta, List<PastIncarnation> history) {
        this(incarnation, checkpointId, offset, baseOffset, baseBytes, bytesSinceBase, checkpointsSinceBase, taskMeta,
                history, -1);
    }

    /** An incarnation id as logs and errors show it: 16 hex digits. */
    public static String hex(long incarnation) {
        return String.format("%016x", incarnation);
    }

    /**
     * Whether this record, found at queue offset {@code stored}, commits its checkpoint. Stored past {@link #offset},
     * it came after another writer's message (a newer incarnation's claim, say) and its writer was fenced off: the
     * incarnations after that one did not build on the checkpoint.
     */
    public boolean countsAt(long stored) {
        return stored == offset;
    }

    @Override
    public byte[] taskMeta() {
        return taskMeta.clone();
    }

    /**
     * The history of an incarnation that restored this record: this record's incarnation first, then this record's
     * history, the oldest dropped beyond {@link #HISTORY_SIZE}.
     */
    public List<PastIncarnation> historyAfter() {
        List<PastIncarnation> next = new ArrayList<>(HISTORY_SIZE);
        next.add(new PastIncarnation(incarnation, checkpointId));
        next.addAll(history.subList(0, Math.min(history.size(), HISTORY_SIZE - 1)));
        return next;
    }

    public byte[] toBytes() {
        ByteWriter w = new ByteWriter(64 + taskMeta.length + 16 * history.size());
        w.writeByte(FORMAT);
        w.writeLong(incarnation);
        w.writeLong(checkpointId);
        w.writeLong(offset);
        w.writeLong(baseOffset);
        w.writeLong(baseBytes);
        w.writeLong(bytesSinceBase);
        w.writeInt(checkpointsSinceBase);
        w.writeLengthPrefixed(taskMeta);
        w.writeByte(history.size());
        for (PastIncarnation p : history) {
            w.writeLong(p.incarnation());
            w.writeLong(p.lastCheckpointId());
        }
        w.writeLong(stageOffset);
        return w.toByteArray();
    }

    public static CommitRecord fromBytes(byte[] bytes) {
        ByteReader r = new ByteReader(bytes);
        int format = r.readByte();
        if (format != FORMAT && format != 1) {
            throw new StateException("commit record of format " + format + ", this engine reads 1 and " + FORMAT);
        }
        long incarnation = r.readLong();
        long checkpointId = r.readLong();
        long offset = r.readLong();
        long baseOffset = r.readLong();
        long baseBytes = r.readLong();
        long bytesSinceBase = r.readLong();
        int checkpointsSinceBase = r.readInt();
        byte[] taskMeta = r.readLengthPrefixed();
        int n = r.readByte();
        if (n < 0 || n > HISTORY_SIZE) {
            throw new StateException("commit record with a history of " + n + " incarnations, at most "
                    + HISTORY_SIZE);
        }
        List<PastIncarnation> history = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            history.add(new PastIncarnation(r.readLong(), r.readLong()));
        }
        long stageOffset = format == 1 ? -1 : r.readLong();
        if (!r.atEnd()) {
            throw new StateException("commit record with " + (bytes.length - r.position()) + " trailing bytes");
        }
        return new CommitRecord(incarnation, checkpointId, offset, baseOffset, baseBytes, bytesSinceBase,
                checkpointsSinceBase, taskMeta, history, stageOffset);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommitRecord c && incarnation == c.incarnation && checkpointId == c.checkpointId
                && offset == c.offset && baseOffset == c.baseOffset && baseBytes == c.baseBytes
                && bytesSinceBase == c.bytesSinceBase && checkpointsSinceBase == c.checkpointsSinceBase
                && Arrays.equals(taskMeta, c.taskMeta) && history.equals(c.history) && stageOffset == c.stageOffset;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(incarnation) * 31 + Long.hashCode(checkpointId);
    }

    @Override
    public String toString() {
        return "CommitRecord[incarnation=" + hex(incarnation) + ", checkpoint=" + checkpointId + ", offset=" + offset
                + ", base offset=" + baseOffset + ", base bytes=" + baseBytes + ", bytes since base=" + bytesSinceBase
                + ", checkpoints since base=" + checkpointsSinceBase + ", task meta=" + taskMeta.length
                + " bytes, history=" + history + ", stage offset=" + stageOffset + "]";
    }
}
