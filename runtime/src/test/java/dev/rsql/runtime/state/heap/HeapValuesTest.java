package dev.rsql.runtime.state.heap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapValuesTest {

    private static final HexFormat HEX = HexFormat.of();

    /**
     * Random puts (of equal and other value lengths) and removes over few keys of few prefixes, so that probe runs
     * are long and wrap around the tables' ends and chains lose heads, middles and tails; checked against a sorted map
     * after every step, and after compactions.
     */
    @Test
    void behavesAsAMapUnderChurnAndCompaction() throws Exception {
        for (long seed = 0; seed < 10; seed++) {
            Random random = new Random(seed);
            long[] counted = {0};
            HeapValues values = new HeapValues(1, 1, bytes -> counted[0] += bytes);
            TreeMap<String, String> model = new TreeMap<>();
            for (int step = 0; step < 20_000; step++) {
                // prefix: 2 bytes of 4 values; namespace: 0 to 2 bytes of 3 values
                byte[] key = new byte[2 + random.nextInt(3)];
                for (int i = 0; i < key.length; i++) {
                    key[i] = (byte) random.nextInt(i < 2 ? 2 : 3);
                }
                byte[] buf = new byte[key.length + 3];   // a longer reused buffer: only its first bytes are the key
                System.arraycopy(key, 0, buf, 0, key.length);
                String k = HEX.formatHex(key);
                if (random.nextInt(3) == 0) {
                    assertEquals(model.remove(k) != null, values.remove(buf, key.length, 2), "seed " + seed);
                } else {
                    byte[] value = new byte[random.nextInt(3)];
                    random.nextBytes(value);
                    values.put(buf, key.length, 2, value);
                    model.put(k, HEX.formatHex(value));
                }
                if (step % 97 == 0) {
                    HeapValues old = values;
                    values = old.compacted();
                    counted[0] -= old.heapBytes();
                    assertEquals(0, values.garbageBytes());
                }
                assertEquals(values.heapBytes(), counted[0], "every allocation and release is reported");
                assertEquals(model.size(), values.size(), "seed " + seed + " step " + step);
                byte[] got = values.get(key, key.length);
                assertEquals(model.get(k), got == null ? null : HEX.formatHex(got), "seed " + seed + " " + k);
                if (step % 50 == 0) {
                    for (int prefix = 0; prefix < 4; prefix++) {
                        byte[] p = {(byte) (prefix >> 1), (byte) (prefix & 1)};
                        TreeMap<String, String> found = new TreeMap<>();
                        values.forEachOfPrefix(p, (fk, fv) -> found.put(HEX.formatHex(fk), HEX.formatHex(fv)));
                        String hp = HEX.formatHex(p);
                        assertEquals(model.subMap(hp, hp + "g"), found, "seed " + seed + " prefix " + hp);
                    }
                }
            }
            TreeMap<String, String> all = new TreeMap<>();
            values.forEach((fk, fv) -> all.put(HEX.formatHex(fk), HEX.formatHex(fv)));
            assertEquals(model, all);
        }
    }

    @Test
    void anEqualLengthValueIsOverwrittenInPlaceAndOthersLeaveGarbage() {
        HeapValues values = new HeapValues(1, 1, bytes -> { });
        byte[] key = {1, 2, 3};
        values.put(key, 3, 2, new byte[8]);
        long used = values.liveBytes();
        values.put(key, 3, 2, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertEquals(0, values.garbageBytes());
        values.put(key, 3, 2, new byte[9]);
        assertEquals(used, values.garbageBytes());
        values.remove(key, 3, 2);
        assertEquals(0, values.liveBytes());
        assertTrue(values.compacted().heapBytes() < values.heapBytes());
    }

    /** The owner refuses a table's growth (pages it allows; only tables take multiples of 12 bytes). */
    @Test
    void anAllocationRefusedByTheOwnerLeavesTheValuesAsTheyWere() throws Exception {
        long[] tableBytes = {0};
        HeapValues values = new HeapValues(1, 1, bytes -> {
            if (bytes > 0 && bytes % 12 == 0 && (tableBytes[0] += bytes) > 100_000) {
                throw new IllegalStateException("refused");
            }
        });
        int n = 0;
        try {
            for (; ; n++) {
                values.put(new byte[] {0, (byte) (n >> 8), (byte) n}, 3, 1, new byte[10]);
            }
        } catch (IllegalStateException e) {
            assertEquals("refused", e.getMessage());
        }
        assertTrue(n > 1000, "refused at " + n);
        assertEquals(n, values.size());
        int[] chained = {0};
        values.forEachOfPrefix(new byte[] {0}, (k, v) -> chained[0]++);
        assertEquals(n, chained[0], "every entry is in its prefix's chain");
        for (int i = 0; i < n; i++) {
            assertEquals(10, values.get(new byte[] {0, (byte) (i >> 8), (byte) i}, 3).length);
        }
    }

    @Test
    void valuesLargerThanAPageGetAPageOfTheirOwn() {
        HeapValues values = new HeapValues(1, 1, bytes -> { });
        List<byte[]> stored = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] value = new byte[(3 << 20) / 2];
            new Random(i).nextBytes(value);
            stored.add(value);
            values.put(new byte[] {0, (byte) i}, 2, 1, value);
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(HEX.formatHex(stored.get(i)), HEX.formatHex(values.get(new byte[] {0, (byte) i}, 2)));
        }
    }
}
