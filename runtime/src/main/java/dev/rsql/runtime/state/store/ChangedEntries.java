package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.Murmur3;

import java.io.IOException;
import java.util.Arrays;

/**
 * The distinct raw keys of one column family written or deleted since the last drain, each with the value it has now:
 * an open-addressing hash table looked up with the backend's reusable key buffer, so that a key already recorded
 * costs a hash and a comparison, and only a key new to the table is copied.
 *
 * <p>Values are kept so that a drain (a checkpoint's change log) need not read every changed key back from the store,
 * which took a fifth of a windowed count's task thread. Value arrays are kept as handed in, not copied: writers of
 * state never modify an array once written. Beyond {@code maxValueBytes} of kept values, new values are left to
 * be read at the drain ({@link #UNKNOWN}), so a burst of large changes does not pile up in the heap.
 */
final class ChangedEntries {

    /** The value of a deleted key. */
    static final byte[] DELETED = new byte[0];
    /** A value not kept: read it from the database. */
    static final byte[] UNKNOWN = new byte[0];

    /** Visits one recorded entry: its value, {@link #DELETED} or {@link #UNKNOWN} (compare by identity). */
    @FunctionalInterface
    interface Visitor {
        void visit(byte[] key, byte[] value) throws IOException;
    }

    private static final int INITIAL_CAPACITY = 1024;
    /** A table this large after a burst of changes is dropped on clear rather than kept for good. */
    private static final int MAX_RETAINED_CAPACITY = 1 << 16;
    private static final int SEED = 0x43484b31;

    private final long maxValueBytes;
    private byte[][] keys = new byte[INITIAL_CAPACITY][];
    private byte[][] values = new byte[INITIAL_CAPACITY][];
    private int[] hashes = new int[INITIAL_CAPACITY];
    private int size;
    private long valueBytes;

    ChangedEntries(long maxValueBytes) {
        this.maxValueBytes = maxValueBytes;
    }

    /**
     * Records that {@code buf[0, len)} now has {@code value} ({@link #DELETED} for a deletion). {@code buf} is copied
     * if the key is new, unless {@code ownKey}: then it is exactly the key and is kept as it is.
     */
    void put(byte[] buf, int len, boolean ownKey, byte[] value) {
        int hash = Murmur3.hash32(buf, 0, len, SEED);
        int mask = keys.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                keys[i] = ownKey ? buf : Arrays.copyOf(buf, len);
                hashes[i] = hash;
                values[i] = keep(value);
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
            if (hashes[i] == hash && Arrays.equals(k, 0, k.length, buf, 0, len)) {
                valueBytes -= values[i].length;
                values[i] = keep(value);
                return;
            }
        }
    }

    private byte[] keep(byte[] value) {
        if (valueBytes + value.length > maxValueBytes) {
            return UNKNOWN;
        }
        valueBytes += value.length;
        return value;
    }

    int size() {
        return size;
    }

    /** Hands every recorded entry to the visitor, in no particular order. */
    void forEach(Visitor visitor) throws IOException {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                visitor.visit(keys[i], values[i]);
            }
        }
    }

    void clear() {
        if (keys.length > MAX_RETAINED_CAPACITY) {
            keys = new byte[INITIAL_CAPACITY][];
            values = new byte[INITIAL_CAPACITY][];
            hashes = new int[INITIAL_CAPACITY];
        } else {
            Arrays.fill(keys, null);
            Arrays.fill(values, null);
        }
        size = 0;
        valueBytes = 0;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        byte[][] oldValues = values;
        int[] oldHashes = hashes;
        keys = new byte[oldKeys.length * 2][];
        values = new byte[keys.length][];
        hashes = new int[keys.length];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
                hashes[i] = oldHashes[j];
            }
        }
    }
}
