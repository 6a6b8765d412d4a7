package dev.rsql.runtime.state.rocksdb;

import dev.rsql.runtime.state.Murmur3;

import java.util.Arrays;

/**
 * The distinct raw keys of one column family written or deleted since the last drain: an open-addressing hash set
 * looked up with the backend's reusable key buffer, so that a key already recorded costs a hash and a comparison,
 * and only a key new to the set is copied.
 */
final class ChangedKeys {

    private static final int INITIAL_CAPACITY = 1024;
    /** A table this large after a burst of changes is dropped on clear rather than kept for good. */
    private static final int MAX_RETAINED_CAPACITY = 1 << 16;
    private static final int SEED = 0x43484b31;

    private byte[][] keys = new byte[INITIAL_CAPACITY][];
    private int[] hashes = new int[INITIAL_CAPACITY];
    private int size;

    void add(byte[] buf, int len) {
        int hash = Murmur3.hash32(buf, 0, len, SEED);
        int mask = keys.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                keys[i] = Arrays.copyOf(buf, len);
                hashes[i] = hash;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
            if (hashes[i] == hash && Arrays.equals(k, 0, k.length, buf, 0, len)) {
                return;
            }
        }
    }

    int size() {
        return size;
    }

    /** The keys, in no particular order. */
    byte[][] toArray() {
        byte[][] out = new byte[size][];
        int n = 0;
        for (byte[] k : keys) {
            if (k != null) {
                out[n++] = k;
            }
        }
        return out;
    }

    void clear() {
        if (keys.length > MAX_RETAINED_CAPACITY) {
            keys = new byte[INITIAL_CAPACITY][];
            hashes = new int[INITIAL_CAPACITY];
        } else {
            Arrays.fill(keys, null);
        }
        size = 0;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldHashes = hashes;
        keys = new byte[oldKeys.length * 2][];
        hashes = new int[keys.length];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                hashes[i] = oldHashes[j];
            }
        }
    }
}
