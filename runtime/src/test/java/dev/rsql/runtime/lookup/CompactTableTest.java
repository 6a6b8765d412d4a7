package dev.rsql.runtime.lookup;

import dev.rsql.runtime.state.ByteReader;
import dev.rsql.runtime.state.ByteWriter;
import dev.rsql.runtime.types.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compact store against a HashMap of the same random rows, loaded by several threads at once. */
class CompactTableTest {

    private static final List<DataType> TYPES = List.of(DataType.of(DataType.Kind.BIGINT),
            DataType.of(DataType.Kind.INT), DataType.string(), DataType.of(DataType.Kind.DOUBLE));

    @Test
    void answersLookupsAsAHashMapDoes() throws Exception {
        Random r = new Random(1201);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 60_000; i++) {
            // id unique except for a few repeats; (grp, name) with many rows per key; NULLs in both keys
            Long id = r.nextInt(50) == 0 ? null : (long) (r.nextInt(100) == 0 ? r.nextInt(1000) : i * 7L);
            Integer grp = r.nextInt(30) == 0 ? null : r.nextInt(200);
            String name = r.nextInt(30) == 0 ? null : "n" + r.nextInt(40) + "x".repeat(r.nextInt(30));
            rows.add(new Object[]{id, grp, name, r.nextDouble()});
        }
        CompactTable table = load(TYPES, List.of(new int[]{0}, new int[]{1, 2}), rows, 3);
        assertEquals(rows.size(), table.size());

        Map<List<Object>, List<List<Object>>> byId = new HashMap<>();
        Map<List<Object>, List<List<Object>>> byGroup = new HashMap<>();
        for (Object[] row : rows) {
            if (row[0] != null) {
                byId.computeIfAbsent(List.of(row[0]), k -> new ArrayList<>()).add(Arrays.asList(row));
            }
            if (row[1] != null && row[2] != null) {
                byGroup.computeIfAbsent(List.of(row[1], row[2]), k -> new ArrayList<>()).add(Arrays.asList(row));
            }
        }
        for (Map.Entry<List<Object>, List<List<Object>>> e : byId.entrySet()) {
            assertSameRows(e.getValue(), table.lookup(0, e.getKey().toArray()), e.getKey());
        }
        int multi = 0;
        for (Map.Entry<List<Object>, List<List<Object>>> e : byGroup.entrySet()) {
            assertSameRows(e.getValue(), table.lookup(1, e.getKey().toArray()), e.getKey());
            multi += e.getValue().size() > 1 ? 1 : 0;
        }
        assertTrue(multi > 1000, "too few keys with several rows to be a test");
        for (int i = 0; i < 2000; i++) {
            Object[] absent = {(long) -1 - r.nextInt(1000)};
            assertEquals(0, table.lookup(0, absent).size());
            Object[] absentGroup = {r.nextInt(200), "m" + r.nextInt(40)};
            assertEquals(0, table.lookup(1, absentGroup).size());
        }
    }

    /**
     * The learnt encodings, loaded by four threads at once: a few-valued string column with NULLs (dictionary), one
     * whose distinct values pass the dictionary's limit mid-load (earlier values keep their codes, later ones go
     * inline), one whose values mostly share a prefix and suffix (some not, some shorter than both, some non-ASCII),
     * and integers far from the column's first value in both directions (differences that wrap around).
     */
    @Test
    void learntEncodingsDecodeExactly() throws Exception {
        List<DataType> types = List.of(DataType.of(DataType.Kind.BIGINT), DataType.string(), DataType.string(),
                DataType.string(), DataType.of(DataType.Kind.BIGINT), DataType.of(DataType.Kind.INT));
        Random r = new Random(1202);
        int n = 3 * CompactRowCodec.DICTIONARY_LIMIT;
        String[] odd = {"", "@mail.com", "user", "usér😀@mail.com", "😀", "user@mail.co", "x@mail.comuser"};
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String city = r.nextInt(10) == 0 ? null : "city-" + r.nextInt(300) + "-ü";
            // distinct values come slowly at first, then every row has a new one: the limit is passed mid-load
            String tag = i < n / 3 ? "t" + r.nextInt(1000) : r.nextInt(4) == 0 ? "t" + r.nextInt(1000) : "u" + i;
            String mail = r.nextInt(20) == 0 ? null : r.nextInt(10) == 0 ? odd[r.nextInt(odd.length)]
                    : "user" + r.nextInt(1_000_000) + "@mail.com";
            long big = switch (r.nextInt(5)) {
                case 0 -> Long.MIN_VALUE + r.nextInt(3);
                case 1 -> Long.MAX_VALUE - r.nextInt(3);
                default -> 1_700_000_000_000L + r.nextInt(1_000_000);
            };
            Integer small = r.nextInt(10) == 0 ? null : r.nextBoolean() ? r.nextInt() : r.nextInt(100);
            rows.add(new Object[]{(long) i, city, tag, mail, big, small});
        }
        CompactTable table = load(types, List.of(new int[]{0}, new int[]{1}, new int[]{3}), rows, 4);
        assertEquals(rows.size(), table.size());
        Map<List<Object>, List<List<Object>>> byCity = new HashMap<>();
        Map<List<Object>, List<List<Object>>> byMail = new HashMap<>();
        for (Object[] row : rows) {
            assertSameRows(List.of(Arrays.asList(row)), table.lookup(0, new Object[]{row[0]}), List.of(row[0]));
            if (row[1] != null) {
                byCity.computeIfAbsent(List.of(row[1]), k -> new ArrayList<>()).add(Arrays.asList(row));
            }
            if (row[3] != null) {
                byMail.computeIfAbsent(List.of(row[3]), k -> new ArrayList<>()).add(Arrays.asList(row));
            }
        }
        for (Map.Entry<List<Object>, List<List<Object>>> e : byCity.entrySet()) {
            assertSameRows(e.getValue(), table.lookup(1, e.getKey().toArray()), e.getKey());
        }
        for (Map.Entry<List<Object>, List<List<Object>>> e : byMail.entrySet()) {
            assertSameRows(e.getValue(), table.lookup(2, e.getKey().toArray()), e.getKey());
        }
        assertEquals(0, table.lookup(1, new Object[]{"city-300-ü"}).size());
        assertEquals(0, table.lookup(2, new Object[]{"user@mail.com"}).size());
    }

    /**
     * The encodings do shrink values: a few-valued column's value takes a one-byte code; once a many-valued column's
     * dictionary is abandoned, its values lose the prefix and suffix most of its first values share (a few odd ones
     * among them notwithstanding), and a value without them is kept whole.
     */
    @Test
    void dictionaryAndAffixShrinkValues() {
        CompactRowCodec codec = new CompactRowCodec(List.of(DataType.string(), DataType.string()));
        ByteWriter out = new ByteWriter(64);
        for (int i = 0; i < CompactRowCodec.DICTIONARY_LIMIT + CompactRowCodec.AFFIX_SAMPLES; i++) {
            out.reset();
            String mail = i % 12 == 0 ? "odd" + i : "user" + i + "@example-mail.com";
            codec.write(new Object[]{"city-" + i % 20, mail}, out);
        }
        List<Object[]> rows = List.of(new Object[]{"city-7", "user987654@example-mail.com"},
                new Object[]{"city-3", "user-without-the-suffix"}, new Object[]{"new city", null});
        List<byte[]> encoded = new ArrayList<>();
        for (Object[] row : rows) {
            out.reset();
            codec.write(row, out);
            encoded.add(out.toByteArray());
        }
        codec.freeze();
        // bitmap 1 + city code 1 + mail header 1 + "987654" 6
        assertEquals(9, encoded.get(0).length);
        assertEquals(1 + 1 + 1 + "user-without-the-suffix".length(), encoded.get(1).length);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(Arrays.asList(rows.get(i)), Arrays.asList(codec.read(new ByteReader(encoded.get(i)))));
        }
    }

    /** Loads the rows on {@code threads} threads, each with its own loader, taking every {@code threads}-th row. */
    private static CompactTable load(List<DataType> types, List<int[]> keys, List<Object[]> rows, int threads)
            throws Exception {
        CompactTable.Builder builder = new CompactTable.Builder(types, keys);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                CompactTable.Builder.Loader loader = builder.newLoader();
                int part = t;
                done.add(pool.submit(() -> {
                    for (int i = part; i < rows.size(); i += threads) {
                        loader.add(rows.get(i));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        return builder.build();
    }

    private static void assertSameRows(List<List<Object>> expected, List<Object[]> actual, List<Object> key) {
        List<String> e = new ArrayList<>(expected.stream().map(Object::toString).toList());
        List<String> a = new ArrayList<>(actual.stream().map(x -> Arrays.asList(x).toString()).toList());
        e.sort(null);
        a.sort(null);
        assertEquals(e, a, "rows of key " + key);
    }
}
