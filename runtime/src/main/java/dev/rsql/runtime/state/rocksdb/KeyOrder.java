package dev.rsql.runtime.state.rocksdb;

import java.util.Arrays;

/**
 * The ascending order of byte-string keys (unsigned, as RocksDB's default comparator), as a permutation of their
 * indexes: a bottom-up merge sort of ints. {@code Arrays.sort} of boxed indexes with a comparator allocates per key,
 * and its TimSort, shared by every other sort with a comparator in the process, kept being recompiled.
 */
final class KeyOrder {

    private KeyOrder() {
    }

    /** The indexes of {@code keys} in ascending order of the keys. */
    static int[] of(byte[][] keys) {
        int n = keys.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        // runs of 8 by insertion, then merges of doubling width between two arrays
        for (int from = 0; from < n; from += 8) {
            insertionSort(keys, order, from, Math.min(from + 8, n));
        }
        int[] other = new int[n];
        for (int width = 8; width < n; width <<= 1) {
            for (int lo = 0; lo < n; lo += width << 1) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + (width << 1), n);
                merge(keys, order, other, lo, mid, hi);
            }
            int[] t = order;
            order = other;
            other = t;
        }
        return order;
    }

    private static void insertionSort(byte[][] keys, int[] order, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int x = order[i];
            int j = i - 1;
            while (j >= from && Arrays.compareUnsigned(keys[order[j]], keys[x]) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    }

    private static void merge(byte[][] keys, int[] from, int[] to, int lo, int mid, int hi) {
        int a = lo;
        int b = mid;
        for (int k = lo; k < hi; k++) {
            if (b >= hi || (a < mid && Arrays.compareUnsigned(keys[from[a]], keys[from[b]]) <= 0)) {
                to[k] = from[a++];
            } else {
                to[k] = from[b++];
            }
        }
    }
}
