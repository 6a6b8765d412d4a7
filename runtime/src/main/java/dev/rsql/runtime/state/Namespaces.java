package dev.rsql.runtime.state;

/**
 * Namespaces of keyed state. A window {@code [start, end)} is 16 bytes: start then end, each a big-endian long with
 * the sign bit flipped, so that unsigned byte order equals numeric order (negative times included): the namespaces
 * of one key iterate by window start, then end. Non-window state uses {@link #EMPTY}.
 */
public final class Namespaces {

    /** The namespace of non-window state. Shared: never modify it. */
    public static final byte[] EMPTY = new byte[0];

    public static final int WINDOW_LENGTH = 16;

    private Namespaces() {
    }

    public static byte[] window(long start, long end) {
        byte[] b = new byte[WINDOW_LENGTH];
        putOrderedLong(b, 0, start);
        putOrderedLong(b, 8, end);
        return b;
    }

    public static boolean isWindow(byte[] namespace) {
        return namespace.length == WINDOW_LENGTH;
    }

    public static long windowStart(byte[] namespace) {
        checkWindow(namespace);
        return getOrderedLong(namespace, 0);
    }

    public static long windowEnd(byte[] namespace) {
        checkWindow(namespace);
        return getOrderedLong(namespace, 8);
    }

    /** Writes {@code v} as 8 bytes whose unsigned lexicographic order is the numeric order of {@code v}. */
    public static void putOrderedLong(byte[] b, int offset, long v) {
        long u = v ^ Long.MIN_VALUE;
        for (int i = 7; i >= 0; i--) {
            b[offset + i] = (byte) u;
            u >>>= 8;
        }
    }

    /** Reads a long written by {@link #putOrderedLong}. */
    public static long getOrderedLong(byte[] b, int offset) {
        long u = 0;
        for (int i = 0; i < 8; i++) {
            u = (u << 8) | (b[offset + i] & 0xff);
        }
        return u ^ Long.MIN_VALUE;
    }

    private static void checkWindow(byte[] namespace) {
        if (namespace.length != WINDOW_LENGTH) {
            throw new IllegalArgumentException("not a window namespace: " + namespace.length + " bytes");
        }
    }
}
