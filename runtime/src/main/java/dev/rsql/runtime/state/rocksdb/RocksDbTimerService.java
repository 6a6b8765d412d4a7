package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.StateException;
import dev.rsql.runtime.state.TimerService;
import org.rocksdb.RocksDBException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The timers of one operator in the backend's timer column family, keyed
 * {@code [operator id][kind][time][key length][key][namespace]} with an empty value, so that RocksDB keeps them in
 * time order (then key, then namespace) and a timer registered twice is stored once.
 *
 * <p>Each kind (event, processing time) keeps in memory a lower bound of its timers' times. Firing with nothing due
 * is a comparison with it and touches no RocksDB; otherwise firing seeks to the bound, reads due timers in batches
 * and stops at the first timer that is not due. Because the seek starts at the bound, it skips the tombstones of
 * timers fired earlier.
 *
 * <p>While firing, a handler may register and delete timers of its own operator: a due timer it registers fires in
 * the same call (right after the current one if it is earlier), a timer it deletes does not fire. A handler that
 * always re-registers the timer it is handed, at a due time, never lets firing end (as in Flink).
 */
final class RocksDbTimerService implements TimerService {

    static final byte EVENT_TIME = 0;
    static final byte PROCESSING_TIME = 1;

    private static final int MIN_BATCH = 16;
    private static final int MAX_BATCH = 1024;
    private static final RocksDbIterator.Decoder<byte[]> RAW_KEY = (k, v) -> k;
    private static final byte[] NO_VALUE = new byte[0];

    private final RocksDbStateBackend backend;
    private final int operatorId;
    private final String operatorName;
    private final TimerQueue eventTime;
    private final TimerQueue processingTime;
    /** RocksDB seeks made by this service (for tests: firing with nothing due must make none). */
    private long seeks;

    RocksDbTimerService(RocksDbStateBackend backend, int operatorId, String operatorName) {
        this.backend = backend;
        this.operatorId = operatorId;
        this.operatorName = operatorName;
        this.eventTime = new TimerQueue(EVENT_TIME);
        this.processingTime = new TimerQueue(PROCESSING_TIME);
    }

    @Override
    public void registerEventTimeTimer(long time, byte[] key, byte[] namespace) {
        eventTime.register(time, key, namespace);
    }

    @Override
    public void deleteEventTimeTimer(long time, byte[] key, byte[] namespace) {
        eventTime.delete(time, key, namespace);
    }

    @Override
    public void registerProcessingTimeTimer(long time, byte[] key, byte[] namespace) {
        processingTime.register(time, key, namespace);
    }

    @Override
    public void deleteProcessingTimeTimer(long time, byte[] key, byte[] namespace) {
        processingTime.delete(time, key, namespace);
    }

    @Override
    public void fireEventTimeTimers(long watermark, TimerHandler handler) throws Exception {
        eventTime.fire(watermark, handler);
    }

    @Override
    public void fireProcessingTimeTimers(long now, TimerHandler handler) throws Exception {
        processingTime.fire(now, handler);
    }

    @Override
    public long nextProcessingTime() {
        return processingTime.min();
    }

    /** Time of the earliest event-time timer, or {@link Long#MAX_VALUE}. */
    long nextEventTime() {
        return eventTime.min();
    }

    long seeks() {
        return seeks;
    }

    @Override
    public String toString() {
        return "timers of " + operatorName;
    }

    /** The timers of one kind. */
    private final class TimerQueue {
        private final byte kind;
        /** Exclusive upper bound of this queue's keys. */
        private final byte[] end;

        /** Every timer of this queue has a time at or after this. */
        private long lowerBound = Long.MIN_VALUE;
        /** Whether a timer at {@code lowerBound} exists (or there is no timer and it is MAX_VALUE). */
        private boolean exact;

        // Firing: all due timers not fired yet are at or after resumeKey.
        private boolean firing;
        private long firingUpTo;
        private byte[] resumeKey;
        private boolean mutated;
        private boolean batchStale;

        TimerQueue(byte kind) {
            this.kind = kind;
            this.end = KeyBuffer.successor(KeyBuffer.prefix(operatorId, kind));
            refresh();
        }

        void register(long time, byte[] key, byte[] namespace) {
            KeyBuffer k = backend.timerKeyBuffer().timer(operatorId, kind, time, key, namespace);
            try {
                backend.put(StateColumnFamily.TIMERS, k.buf, k.len, NO_VALUE, 0);
            } catch (RocksDBException e) {
                throw new StateException("registering a timer of " + operatorName + " failed", e);
            }
            if (time <= lowerBound) {
                lowerBound = time;
                exact = true;
            }
            if (firing) {
                mutated = true;
                if (time <= firingUpTo) {
                    batchStale = true;
                    byte[] copy = k.copy();
                    if (Arrays.compareUnsigned(copy, resumeKey) < 0) {
                        resumeKey = copy;
                    }
                }
            }
        }

        void delete(long time, byte[] key, byte[] namespace) {
            KeyBuffer k = backend.timerKeyBuffer().timer(operatorId, kind, time, key, namespace);
            try {
                backend.delete(StateColumnFamily.TIMERS, k.buf, k.len);
            } catch (RocksDBException e) {
                throw new StateException("deleting a timer of " + operatorName + " failed", e);
            }
            if (time == lowerBound) {
                exact = false;
            }
            if (firing) {
                mutated = true;
                if (time <= firingUpTo) {
                    batchStale = true;
                }
            }
        }

        long min() {
            if (!exact) {
                refresh();
            }
            return lowerBound;
        }

        /** Finds the earliest timer with one seek from the lower bound. */
        private void refresh() {
            seeks++;
            try (RocksDbIterator<byte[]> it = new RocksDbIterator<>(backend, backend.timersCf(),
                    KeyBuffer.timerSeekKey(operatorId, kind, lowerBound), end, RAW_KEY)) {
                lowerBound = it.hasNext() ? KeyBuffer.timerTime(it.next()) : Long.MAX_VALUE;
                exact = true;
            }
        }

        void fire(long upTo, TimerHandler handler) throws Exception {
            if (lowerBound > upTo) {
                return; // nothing due: no RocksDB access
            }
            backend.ensureOpen();
            if (firing) {
                throw new IllegalStateException("timers of " + operatorName + " fired from their own handler");
            }
            firing = true;
            firingUpTo = upTo;
            exact = false;
            resumeKey = KeyBuffer.timerSeekKey(operatorId, kind, lowerBound);
            try {
                List<byte[]> batch = new ArrayList<>();
                int batchSize = MIN_BATCH;
                while (true) {
                    batch.clear();
                    long next = Long.MAX_VALUE;
                    boolean full = false;
                    seeks++;
                    try (RocksDbIterator<byte[]> it = new RocksDbIterator<>(backend, backend.timersCf(), resumeKey,
                            end, RAW_KEY)) {
                        while (it.hasNext()) {
                            byte[] k = it.next();
                            long t = KeyBuffer.timerTime(k);
                            if (t > upTo) {
                                next = t;
                                break;
                            }
                            batch.add(k);
                            if (batch.size() >= batchSize) {
                                full = true;
                                break;
                            }
                        }
                    }
                    if (batch.isEmpty()) {
                        lowerBound = next;
                        exact = true;
                        return;
                    }
                    mutated = false;
                    batchStale = false;
                    for (byte[] k : batch) {
                        if (batchStale) {
                            break;
                        }
                        try {
                            backend.delete(StateColumnFamily.TIMERS, k, k.length);
                        } catch (RocksDBException e) {
                            throw new StateException("deleting a fired timer of " + operatorName + " failed", e);
                        }
                        resumeKey = k;
                        byte[][] keyAndNamespace = KeyBuffer.keyAndNamespace(k, 13);
                        handler.onTimer(KeyBuffer.timerTime(k), keyAndNamespace[0], keyAndNamespace[1]);
                    }
                    if (!full && !mutated) {
                        lowerBound = next; // the scan saw everything and nothing changed since
                        exact = true;
                        return;
                    }
                    // Small batches while handlers keep adding due timers (each addition forces a new seek),
                    // large ones for a plain backlog.
                    batchSize = batchStale ? MIN_BATCH : Math.min(MAX_BATCH, batchSize * 4);
                }
            } finally {
                firing = false;
                resumeKey = null;
            }
        }
    }
}
