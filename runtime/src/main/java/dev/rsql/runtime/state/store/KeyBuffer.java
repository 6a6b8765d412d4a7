package dev.rsql.runtime.state.store;

import dev.rsql.runtime.state.Namespaces;

import java.util.Arrays;

/**
 * A reusable buffer in which the backend builds stored keys, so that a get or put allocates no key array. Owned by
 * one backend, used from the task's thread only; the contents are valid until the next build.
 *
 * <p>Layouts (all integers big-endian, so byte order is numeric order for the unsigned ones):
 * <pre>
 * value:  [state id: 4][key group: 2][key length: varint][key][namespace]
 * timer:  [operator id: 4][kind: 1][time: 8, sign bit flipped][key length: varint][key][namespace]
 * </pre>
 * The key is length-prefixed, so no key is a prefix of another and any bytes may appear in keys and namespaces.
 */
public final class KeyBuffer {

    byte[] buf = new byte[128];
    int len;

    KeyBuffer value(int stateId, int keyGroup, byte[] key, byte[] namespace) {
        len = 0;
        ensure(11 + key.length + namespace.length);
        putInt(stateId);
        putShort(keyGroup);
        putVarInt(key.length);
        putBytes(key);
        putBytes(namespace);
        return this;
    }

    /** The prefix of every namespace of one key. */
    KeyBuffer valuePrefix(int stateId, int keyGroup, byte[] key) {
        len = 0;
        ensure(11 + key.length);
        putInt(stateId);
        putShort(keyGroup);
        putVarInt(key.length);
        putBytes(key);
        return this;
    }

    KeyBuffer timer(int operatorId, byte kind, long time, byte[] key, byte[] namespace) {
        len = 0;
        ensure(18 + key.length + namespace.length);
        putInt(operatorId);
        buf[len++] = kind;
        Namespaces.putOrderedLong(buf, len, time);
        len += 8;
        putVarInt(key.length);
        putBytes(key);
        putBytes(namespace);
        return this;
    }

    byte[] copy() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int capacity) {
        if (capacity > buf.length) {
            buf = new byte[Math.max(capacity, buf.length * 2)];
        }
    }

    private void putInt(int v) {
        buf[len] = (byte) (v >>> 24);
        buf[len + 1] = (byte) (v >>> 16);
        buf[len + 2] = (byte) (v >>> 8);
        buf[len + 3] = (byte) v;
        len += 4;
    }

    private void putShort(int v) {
        buf[len] = (byte) (v >>> 8);
        buf[len + 1] = (byte) v;
        len += 2;
    }

    private void putVarInt(int v) {
        while ((v & ~0x7f) != 0) {
            buf[len++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    private void putBytes(byte[] b) {
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    // --- static helpers for stored keys -------------------------------------------------------------------------

    static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    static byte[] prefix(int id, byte kind) {
        return new byte[] {(byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, kind};
    }

    /** Prefix of timer keys at {@code time} and later. */
    static byte[] timerSeekKey(int operatorId, byte kind, long time) {
        byte[] b = new byte[13];
        System.arraycopy(prefix(operatorId, kind), 0, b, 0, 5);
        Namespaces.putOrderedLong(b, 5, time);
        return b;
    }

    static long timerTime(byte[] storedKey) {
        return Namespaces.getOrderedLong(storedKey, 5);
    }

    /**
     * Splits the key and namespace of a stored key whose user key (length-prefixed) starts at {@code offset}:
     * {@code [key, namespace]}.
     */
    static byte[][] keyAndNamespace(byte[] stored, int offset) {
        int end = keyEnd(stored, offset, stored.length);
        int start = offset;
        while (stored[start++] < 0) {
            // past the key length's varint
        }
        byte[] key = Arrays.copyOfRange(stored, start, end);
        byte[] namespace = end == stored.length ? Namespaces.EMPTY : Arrays.copyOfRange(stored, end, stored.length);
        return new byte[][] {key, namespace};
    }

    /**
     * The length of a stored value key's prefix up to and with its key (what {@link #valuePrefix} builds), or -1 if
     * {@code stored[0, length)} is too short to hold one.
     */
    public static int valuePrefixLength(byte[] stored, int length) {
        return keyEnd(stored, 6, length);
    }

    /** Where the length-prefixed key at {@code offset} ends, or -1 if it does not fit in {@code stored[0, length)}. */
    private static int keyEnd(byte[] stored, int offset, int length) {
        int keyLength = 0;
        int p = offset;
        for (int shift = 0; p < length && shift < 32; shift += 7) {
            byte b = stored[p++];
            keyLength |= (b & 0x7f) << shift;
            if (b >= 0) {
                int end = p + keyLength;
                return end <= length ? end : -1;
            }
        }
        return -1;
    }

    /**
     * The smallest key greater than every key starting with {@code prefix}, or null if there is none (all 0xFF).
     */
    public static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] s = Arrays.copyOf(prefix, i + 1);
                s[i]++;
                return s;
            }
        }
        return null;
    }
}
