package dev.rsql.planner.functions;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.testing.TestJob;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import dev.rsql.runtime.spi.ExtClassLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flink UDAFs whose accumulators count strings in a {@code MapView} or list them in a {@code ListView} (kept as one
 * state entry per element in a GROUP BY), over an updating input: their results equal a direct computation over the
 * final table.
 */
class DataViewUdafTest {

    @TempDir
    static Path ext;
    private static ClassLoader loader;

    @BeforeAll
    static void buildJar() throws Exception {
        loader = new ExtClassLoader(List.of(UdfJars.build("flink-mapview", ext)),
                DataViewUdafTest.class.getClassLoader());
    }

    @Test
    void dataViewUdafsOverUpdatesEqualADirectComputation() throws Exception {
        Random r = new Random(141);
        List<String> input = new ArrayList<>();
        Map<Integer, String[]> latest = new HashMap<>();
        List<int[]> pending = new ArrayList<>();
        for (int id = 0; id < 600; id++) {
            pending.add(new int[] {id, 1 + r.nextInt(3)});
        }
        while (!pending.isEmpty()) {
            int[] p = pending.get(r.nextInt(pending.size()));
            String[] row = {"g" + r.nextInt(3), "s" + r.nextInt(r.nextBoolean() ? 5 : 60)};
            input.add("{\"id\":" + p[0] + ",\"g\":\"" + row[0] + "\",\"s\":\"" + row[1] + "\"}");
            latest.put(p[0], row);
            if (--p[1] == 0) {
                pending.remove(p);
            }
        }
        String id = "mapview-" + System.nanoTime();
        ValuesSourceFactory.register(id, input);
        String script = "CREATE FUNCTION mode_of AS 'com.example.udaf.ModeUdaf';\n"
                + "CREATE FUNCTION concat_of AS 'com.example.udaf.ConcatUdaf';\n"
                + "CREATE TABLE ev (id INT, g VARCHAR, s VARCHAR) WITH (type = 'values', id = '" + id + "');\n"
                + TestJob.sink("o", "g VARCHAR, m VARCHAR, c VARCHAR")
                + "CREATE VIEW cur AS SELECT id, LAST_VALUE(g) AS g, LAST_VALUE(s) AS s FROM ev GROUP BY id;\n"
                + "INSERT INTO o SELECT g, mode_of(s), concat_of(s) FROM cur GROUP BY g";
        PlannerContext context = new PlannerContext(Options.empty(), loader, n -> null);
        List<Row> rows = TestJob.run(context, script, "o").get("o");

        Map<String, Map<String, Long>> counts = new TreeMap<>();
        latest.values().forEach(row -> counts.computeIfAbsent(row[0], g -> new TreeMap<>())
                .merge(row[1], 1L, Long::sum));
        Map<String, List<String>> expected = new TreeMap<>();
        counts.forEach((g, c) -> {
            long best = c.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            String mode = c.entrySet().stream().filter(e -> e.getValue() == best).findFirst().orElseThrow().getKey();
            List<String> all = new ArrayList<>();
            c.forEach((s, n) -> all.addAll(Collections.nCopies(n.intValue(), s)));
            expected.put(g, List.of(mode + "x" + best + "/" + c.size(), String.join(",", all)));
        });
        // Over updates only the multiset of CONCAT's parts is defined: compare them sorted.
        Map<String, List<String>> table = new TreeMap<>();
        for (Row row : rows) {
            String g = (String) row.get(0);
            List<String> value = List.of((String) row.get(1), sortedParts((String) row.get(2)));
            if (row.kind().isAccumulate()) {
                table.put(g, value);
            } else {
                assertEquals(table.remove(g), value, "a retraction takes back the current row of " + g);
            }
        }
        assertEquals(expected, table);
        assertTrue(rows.stream().anyMatch(x -> x.kind() == RowKind.UPDATE_BEFORE), "the groups were updated");
    }

    private static String sortedParts(String concat) {
        List<String> parts = new ArrayList<>(Arrays.asList(concat.split(",")));
        parts.sort(null);
        return String.join(",", parts);
    }
}
