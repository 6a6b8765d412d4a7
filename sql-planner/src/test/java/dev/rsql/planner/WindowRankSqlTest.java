package dev.rsql.planner;

import dev.rsql.planner.RandomEvents.Event;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window TopN and window deduplication over a tumbling window of random events, out of order within the watermark:
 * insert-only rows once each window ends, compared with ranking each window's events here.
 */
class WindowRankSqlTest {

    private static final long SIZE = 5_000;

    private static final String WINDOWED = " FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '5' SECOND))";

    @Test
    void topNAndFirstRowPerWindow() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(81, 3, 300);
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards)
                + sink("top2", "ws TIMESTAMP(3), k VARCHAR, v BIGINT, d DOUBLE, rn BIGINT")
                + sink("first", "ws TIMESTAMP(3), k VARCHAR, ts TIMESTAMP(3)")
                + "INSERT INTO top2 SELECT window_start, k, v, d, rn FROM (SELECT window_start, window_end, k, v, d,"
                + " ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY v DESC, d DESC) AS rn"
                + WINDOWED + " WHERE v IS NOT NULL) x WHERE rn <= 2;\n"
                + "INSERT INTO first SELECT window_start, k, ts FROM (SELECT window_start, window_end, k, ts,"
                + " ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY ts) AS rn" + WINDOWED
                + ") x WHERE rn = 1;\n", "top2", "first");
        Map<String, List<Event>> groups = new TreeMap<>();
        for (Event e : RandomEvents.all(shards)) {
            groups.computeIfAbsent((e.ts() - Math.floorMod(e.ts(), SIZE)) + "|" + e.k(), x -> new ArrayList<>())
                    .add(e);
        }
        List<String> top2 = new ArrayList<>();
        List<String> first = new ArrayList<>();
        groups.forEach((g, events) -> {
            List<Event> ranked = new ArrayList<>(events.stream().filter(e -> e.v() != null).toList());
            ranked.sort(Comparator.comparing(Event::v).thenComparingDouble(Event::d).reversed());
            for (int i = 0; i < Math.min(2, ranked.size()); i++) {
                top2.add(text(g, ranked.get(i).v(), ranked.get(i).d(), i + 1));
            }
            first.add(text(g, events.stream().mapToLong(Event::ts).min().orElseThrow()));
        });
        top2.sort(null);
        first.sort(null);
        assertTrue(groups.size() > 50, "many windows and keys: " + groups.size());
        for (List<Row> rows : out.values()) {
            assertTrue(rows.stream().allMatch(r -> r.kind() == RowKind.INSERT), "window TopN is insert-only");
        }
        assertEquals(top2, RandomEvents.texts(out.get("top2")));
        assertEquals(first, RandomEvents.texts(out.get("first")));
    }
}
