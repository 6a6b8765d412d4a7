package dev.rsql.runtime.state.rocksdb;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** {@link KeyOrder} orders keys as {@link Arrays#compareUnsigned} does, for any count and any bytes. */
class KeyOrderTest {

    @Test
    void ordersAsUnsignedComparison() {
        Random r = new Random(42);
        for (int n : new int[] {0, 1, 2, 7, 8, 9, 16, 17, 100, 1023, 1024, 5000}) {
            byte[][] keys = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = new byte[r.nextInt(6)];
                r.nextBytes(keys[i]);
            }
            int[] order = KeyOrder.of(keys);
            byte[][] sorted = new byte[n][];
            for (int i = 0; i < n; i++) {
                sorted[i] = keys[order[i]];
            }
            byte[][] expected = keys.clone();
            Arrays.sort(expected, Arrays::compareUnsigned);
            assertArrayEquals(expected, sorted, "n=" + n);
            int[] indexes = order.clone();
            Arrays.sort(indexes);
            assertArrayEquals(java.util.stream.IntStream.range(0, n).toArray(), indexes, "a permutation, n=" + n);
        }
    }
}
