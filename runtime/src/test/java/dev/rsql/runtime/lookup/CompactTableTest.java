package dev.rsql.runtime.lookup;

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
        CompactTable.Builder builder = new CompactTable.Builder(TYPES, List.of(new int[]{0}, new int[]{1, 2}));
        int threads = 3;
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
        CompactTable table = builder.build();
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

    private static void assertSameRows(List<List<Object>> expected, List<Object[]> actual, List<Object> key) {
        List<String> e = new ArrayList<>(expected.stream().map(Object::toString).toList());
        List<String> a = new ArrayList<>(actual.stream().map(x -> Arrays.asList(x).toString()).toList());
        e.sort(null);
        a.sort(null);
        assertEquals(e, a, "rows of key " + key);
    }
}
