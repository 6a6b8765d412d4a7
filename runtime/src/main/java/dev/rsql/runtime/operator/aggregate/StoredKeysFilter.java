package dev.rsql.runtime.operator.aggregate;

import java.util.Arrays;

/**
 * A Bloom filter of the (key, namespace) pairs a state may hold, by their {@link KeyedStateCache} hash: a pair it
 * rules out was never stored, so the cache answers "no value" without reading the state. That is the first record of
 * every new group, window or DISTINCT value, which otherwise costs a RocksDB lookup that finds nothing (as dear as
 * one that finds something: a JNI call and a memtable probe).
 *
 * <p>Blocked: a pair sets 5 bits of one 64-bit word, so a test touches one cache line. It grows in segments, each
 * four times the last, since the number of pairs is not known in advance; a test asks every segment. At 10 to 20 bits
 * a pair about 1 % of the pairs never stored pass (and cost the lookup they would have cost anyway). It never forgets a
 * pair, so a removed one may pass too. Past {@code maxBytes} it refuses to grow ({@link #add} returns false) and the
 * cache drops it: a state that large reads every miss, as before.
 */
final class StoredKeysFilter {

    private static final int BITS_PER_PAIR = 10;
    private static final int FIRST_SEGMENT_PAIRS = 1 << 14;

    private final long maxBytes;
    private long[][] segments = new long[0][];
    private long bytes;
    /** Pairs the newest segment was sized for, and pairs added to it. */
    private long segmentPairs;
    private long added;

    StoredKeysFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The filter's bound for one cache: 1/64 of the heap (16 MiB, 5 million pairs, of 1 GiB), at most 32 MiB. */
    static long defaultMaxBytes() {
        return Math.min(32L << 20, Runtime.getRuntime().maxMemory() / 64);
    }

    /** Records a stored pair. False when the filter would outgrow its bound: it can no longer be used. */
    boolean add(int hash) {
        if (added >= segmentPairs && !grow()) {
            return false;
        }
        long bits = mix(hash);
        long[] words = segments[segments.length - 1];
        words[index(bits, words)] |= mask(bits);
        added++;
        return true;
    }

    /** False only for a pair never {@link #add added}. */
    boolean mightContain(int hash) {
        long bits = mix(hash);
        long mask = mask(bits);
        for (long[] words : segments) {
            if ((words[index(bits, words)] & mask) == mask) {
                return true;
            }
        }
        return false;
    }

    private boolean grow() {
        long pairs = segmentPairs == 0 ? FIRST_SEGMENT_PAIRS : segmentPairs * 4;
        int words = Integer.highestOneBit((int) Math.min(1 << 29, pairs * BITS_PER_PAIR / 64)) * 2;  // rounded up
        if (bytes + 8L * words > maxBytes) {
            return false;
        }
        long[][] more = Arrays.copyOf(segments, segments.length + 1);
        more[segments.length] = new long[words];
        segments = more;
        bytes += 8L * words;
        segmentPairs = pairs;
        added = 0;
        return true;
    }

    /** 64 well-mixed bits of the pair's 32-bit hash (SplitMix64's finalizer). */
    private static long mix(int hash) {
        long z = (hash & 0xffffffffL) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The word: from the high 32 bits (segments are powers of two). */
    private static int index(long bits, long[] words) {
        return (int) (bits >>> 32) & (words.length - 1);
    }

    /** Five bit positions from the low 30 bits. */
    private static long mask(long bits) {
        return 1L << (bits & 63) | 1L << ((bits >>> 6) & 63) | 1L << ((bits >>> 12) & 63)
                | 1L << ((bits >>> 18) & 63) | 1L << ((bits >>> 24) & 63);
    }
}
