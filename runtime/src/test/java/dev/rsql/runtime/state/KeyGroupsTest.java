package dev.rsql.runtime.state;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyGroupsTest {

    @Test
    void murmur3MatchesTheReferenceVectors() {
        assertEquals(0, Murmur3.hash32(new byte[0], 0));
        assertEquals(0x514e28b7, Murmur3.hash32(new byte[0], 1));
        assertEquals(0x248bfa47, Murmur3.hash32(utf8("hello"), 0));
        assertEquals(0x2e4ff723, Murmur3.hash32(utf8("The quick brown fox jumps over the lazy dog"), 0));
        assertEquals(0x2362f9de, Murmur3.hash32(new byte[] {0, 0, 0, 0}, 0));
        assertEquals(0x5a97808a, Murmur3.hash32(utf8("aaaa"), 0x9747b28c));
        assertEquals(0x24884cba, Murmur3.hash32(utf8("Hello, world!"), 0x9747b28c));
        // offset/length variant hashes the slice
        byte[] padded = utf8("__hello__");
        assertEquals(0x248bfa47, Murmur3.hash32(padded, 2, 5, 0));
        // bytes with the high bit set, in whole blocks at an odd offset (blocks are read as little-endian ints)
        byte[] high = {(byte) 0xff, (byte) 0x80, 1, (byte) 0xfe, (byte) 0x9c, 7, (byte) 0xaa, 0x10, (byte) 0xee};
        assertEquals(0x89ba1acd, Murmur3.hash32(high, 1, 8, 42));
    }

    @Test
    void keyGroupIsStableAndInRange() {
        // pinned: stored state depends on these values
        assertEquals(Math.floorMod(0x248bfa47, 128), KeyGroups.of(utf8("hello"), 128));
        int[] counts = new int[128];
        for (int i = 0; i < 100_000; i++) {
            int kg = KeyGroups.of(utf8("key-" + i), 128);
            assertTrue(kg >= 0 && kg < 128);
            counts[kg]++;
        }
        for (int c : counts) {
            assertTrue(c > 600 && c < 960, "roughly uniform: " + c); // mean 781
        }
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.of(new byte[1], 0));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.of(new byte[1], KeyGroups.MAX_KEY_GROUPS + 1));
    }

    @Test
    void rangesAreContiguousAndAgreeWithPartitionOf() {
        for (int keyGroups : new int[] {1, 7, 128, 1000, KeyGroups.MAX_KEY_GROUPS}) {
            for (int partitions : new int[] {1, 2, 3, 7, 64, 1000}) {
                if (partitions > keyGroups) {
                    continue;
                }
                int next = 0;
                for (int p = 0; p < partitions; p++) {
                    int[] r = KeyGroups.range(p, partitions, keyGroups);
                    assertEquals(next, r[0]);
                    int size = r[1] - r[0];
                    assertTrue(size == keyGroups / partitions || size == keyGroups / partitions + 1);
                    for (int kg = r[0]; kg < r[1]; kg++) {
                        assertEquals(p, KeyGroups.partitionOf(kg, partitions, keyGroups));
                    }
                    next = r[1];
                }
                assertEquals(keyGroups, next);
            }
        }
        assertArrayEquals(new int[] {0, 43}, KeyGroups.range(0, 3, 128));
        assertArrayEquals(new int[] {43, 86}, KeyGroups.range(1, 3, 128));
        assertArrayEquals(new int[] {86, 128}, KeyGroups.range(2, 3, 128));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.range(3, 3, 128));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.partitionOf(128, 3, 128));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.range(0, 129, 128));
    }

    @Test
    void windowNamespacesSortByStartThenEnd() {
        long[][] windows = {
            {Long.MIN_VALUE, Long.MIN_VALUE + 1}, {-10_000, -5_000}, {-10_000, 0}, {-1, 0}, {0, 5}, {0, 10},
            {1, 2}, {1_700_000_000_000L, 1_700_000_060_000L}, {Long.MAX_VALUE - 1, Long.MAX_VALUE}};
        List<byte[]> encoded = new ArrayList<>();
        for (long[] w : windows) {
            byte[] ns = Namespaces.window(w[0], w[1]);
            assertEquals(16, ns.length);
            assertEquals(w[0], Namespaces.windowStart(ns));
            assertEquals(w[1], Namespaces.windowEnd(ns));
            encoded.add(ns);
        }
        for (int i = 1; i < encoded.size(); i++) {
            assertTrue(Arrays.compareUnsigned(encoded.get(i - 1), encoded.get(i)) < 0, "window " + i);
        }
        assertEquals(0, Namespaces.EMPTY.length);
        assertThrows(IllegalArgumentException.class, () -> Namespaces.windowStart(Namespaces.EMPTY));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
