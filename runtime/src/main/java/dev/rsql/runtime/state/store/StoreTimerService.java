package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.TimerService;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The timers of one operator in the backend's timer column family, keyed
 * {@code [operator id][kind][time][key length][key][namespace]} with an empty value, so that the store keeps them in
 * time order (then key, then namespace) and a timer registered twice is stored once.
 *
 * <p>Timers registered or deleted since the last {@link #writeBuffers} (which the backend calls before every
 * snapshot or read of its changes) are kept in the heap, in the same order, and reach the store only then: a timer
 * registered and fired between two checkpoints (most of a window's) costs no write to the store. Past
 * {@link #MAX_BUFFERED} buffered changes of a kind they are written at once, which bounds the heap they take.
 *
 * <p>Each kind (event, processing time) keeps in memory a lower bound of its timers' times. Firing with nothing due
 * is a comparison with it and touches no store; otherwise firing seeks to the bound, reads due timers in batches,
 * merges them with the buffered ones and stops at the first timer that is not due. Because the seek starts at the
 * bound, it skips the tombstones of timers fired earlier.
 *
 * <p>While firing, a handler may register and delete timers of its own operator: a due timer it registers fires in
 * the same call (right after the current one if it is earlier), a timer it deletes does not fire. A handler that
 * always re-registers the timer it is handed, at a due time, never lets firing end (as in Flink).
 */
final class StoreTimerService implements TimerService {

    static final byte EVENT_TIME = 0;
    static final byte PROCESSING_TIME = 1;

    private static final int MIN_BATCH = 16;
    private static final int MAX_BATCH = 1024;
    /** Registrations and deletions of a kind kept in the heap until the next write. */
    static final int MAX_BUFFERED = 32_768;
    private static final StateStore.Decoder<byte[]> RAW_KEY = (k, v) -> k;
    private static final byte[] NO_VALUE = new byte[0];

    private final StoreStateBackend backend;
    private final int operatorId;
    private final String operatorName;
    private final TimerQueue eventTime;
    private final TimerQueue processingTime;
    /** Store scans made by this service (for tests: firing with nothing due must make none). */
    private long seeks;

    StoreTimerService(StoreStateBackend backend, int operatorId, String operatorName) {
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

    /** Writes the timers registered and deleted since the last call to the store (not while firing). */
    void writeBuffers() {
        eventTime.writeBuffers();
        processingTime.writeBuffers();
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
        /** Stored keys of the timers registered since the last write, not in the store unless registered before it. */
        private final TreeSet<byte[]> registered = new TreeSet<>(Arrays::compareUnsigned);
        /** Stored keys of the timers deleted since the last write, which the store may hold; none is in registered. */
        private final TreeSet<byte[]> deleted = new TreeSet<>(Arrays::compareUnsigned);

        /** Every timer of this queue has a time at or after this. */
        private long lowerBound = Long.MIN_VALUE;
        /** Whether a timer at {@code lowerBound} exists (or there is no timer and it is MAX_VALUE). */
        private boolean exact;
        private boolean firing;

        TimerQueue(byte kind) {
            this.kind = kind;
            this.end = KeyBuffer.successor(KeyBuffer.prefix(operatorId, kind));
            refresh();
        }

        void register(long time, byte[] key, byte[] namespace) {
            byte[] k = backend.timerKeyBuffer().timer(operatorId, kind, time, key, namespace).copy();
            deleted.remove(k);
            registered.add(k);
            if (time <= lowerBound) {
                lowerBound = time;
                exact = true;
            }
            writeIfFull();
        }

        void delete(long time, byte[] key, byte[] namespace) {
            byte[] k = backend.timerKeyBuffer().timer(operatorId, kind, time, key, namespace).copy();
            registered.remove(k);
            deleted.add(k);     // registered before the last write, it is in the store
            if (time == lowerBound) {
                exact = false;
            }
            writeIfFull();
        }

        private void writeIfFull() {
            if (!firing && registered.size() + deleted.size() > MAX_BUFFERED) {
                writeBuffers();
            }
        }

        void writeBuffers() {
            if (firing) {
                throw new IllegalStateException("timers of " + operatorName + " written while firing");
            }
            for (byte[] k : registered) {
                backend.put(StateColumnFamily.TIMERS, k, k.length, NO_VALUE);
            }
            for (byte[] k : deleted) {
                backend.delete(StateColumnFamily.TIMERS, k, k.length);
            }
            registered.clear();
            deleted.clear();
        }

        long min() {
            if (!exact) {
                refresh();
            }
            return lowerBound;
        }

        /** Finds the earliest timer with one seek from the lower bound (a timer deleted in the heap may be it). */
        private void refresh() {
            seeks++;
            try (CloseableIterator<byte[]> it = backend.store().scan(StateColumnFamily.TIMERS,
                    KeyBuffer.timerSeekKey(operatorId, kind, lowerBound), end, RAW_KEY)) {
                lowerBound = Math.min(it.hasNext() ? KeyBuffer.timerTime(it.next()) : Long.MAX_VALUE,
                        firstRegistered());
                exact = true;
            }
        }

        private long firstRegistered() {
            return registered.isEmpty() ? Long.MAX_VALUE : KeyBuffer.timerTime(registered.first());
        }

        /**
         * Fires the due timers in key order, merging the stored ones (read in batches; the store itself only loses the
         * timers passed) with the buffered ones, which the handlers' registrations and deletions change as it goes.
         */
        void fire(long upTo, TimerHandler handler) throws Exception {
            if (lowerBound > upTo) {
                return; // nothing due: no store access
            }
            backend.ensureOpen();
            if (firing) {
                throw new IllegalStateException("timers of " + operatorName + " fired from their own handler");
            }
            firing = true;
            try {
                byte[] resume = KeyBuffer.timerSeekKey(operatorId, kind, lowerBound);
                List<byte[]> batch = new ArrayList<>();
                int i = 0;
                int batchSize = MIN_BATCH;
                boolean more = true;
                long stored = Long.MAX_VALUE;   // time of the first stored timer not due
                while (true) {
                    if (i == batch.size() && more) {
                        batch.clear();
                        i = 0;
                        more = read(resume, upTo, batchSize, batch);
                        if (!more) {
                            stored = lastRead;
                        }
                        batchSize = Math.min(MAX_BATCH, batchSize * 4);
                    }
                    byte[] r = i < batch.size() ? batch.get(i) : null;
                    byte[] b = registered.isEmpty() ? null : registered.first();
                    if (b != null && KeyBuffer.timerTime(b) > upTo) {
                        b = null;
                    }
                    if (r == null && b == null) {
                        break;
                    }
                    int order = r == null ? 1 : b == null ? -1 : Arrays.compareUnsigned(r, b);
                    byte[] k;
                    if (order <= 0) {
                        i++;
                        resume = r;
                        backend.delete(StateColumnFamily.TIMERS, r, r.length);
                        if (order == 0) {
                            registered.pollFirst();     // registered again: fires once
                        }
                        if (deleted.remove(r)) {
                            continue;
                        }
                        k = r;
                    } else {
                        k = registered.pollFirst();
                    }
                    byte[][] keyAndNamespace = KeyBuffer.keyAndNamespace(k, 13);
                    handler.onTimer(KeyBuffer.timerTime(k), keyAndNamespace[0], keyAndNamespace[1]);
                }
                lowerBound = Math.min(stored, firstRegistered());
                exact = lowerBound < stored || stored == Long.MAX_VALUE || deleted.isEmpty();
            } finally {
                firing = false;
            }
            writeIfFull();
        }

        /** Time of the first timer not due that the last {@link #read} saw, or MAX_VALUE if none. */
        private long lastRead;

        /**
         * Reads up to {@code max} due stored timers at or after {@code from} into {@code batch}; returns whether more
         * may follow (the batch is full).
         */
        private boolean read(byte[] from, long upTo, int max, List<byte[]> batch) {
            seeks++;
            lastRead = Long.MAX_VALUE;
            try (CloseableIterator<byte[]> it = backend.store().scan(StateColumnFamily.TIMERS, from, end, RAW_KEY)) {
                while (it.hasNext()) {
                    byte[] k = it.next();
                    long t = KeyBuffer.timerTime(k);
                    if (t > upTo) {
                        lastRead = t;
                        return false;
                    }
                    batch.add(k);
                    if (batch.size() >= max) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
