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
 * Deduplication ({@code ROW_NUMBER() ... = 1} ordered by a time attribute) over random events, out of order within
 * the watermark, compared with picking the first or last event per key here.
 */
class DeduplicateSqlTest {

    private static final String COLUMNS = "k VARCHAR, v BIGINT, d DOUBLE, s VARCHAR, ts TIMESTAMP(3)";

    private static String dedup(String sink, String order) {
        return "INSERT INTO " + sink + " SELECT k, v, d, s, ts FROM (SELECT k, v, d, s, ts, ROW_NUMBER() OVER"
                + " (PARTITION BY k ORDER BY " + order + ") AS rn FROM ev) x WHERE rn = 1;\n";
    }

    private static String text(Event e) {
        return RandomEvents.text(e.k(), e.v(), e.d(), e.s(), e.ts());
    }

    /** The final row per key of an upsert changelog keyed by k, as text by key. */
    private static Map<Object, String> byKey(List<Row> rows) {
        Map<Object, String> out = new TreeMap<>();
        Changelog.upsert(rows, 0).forEach((k, row) -> out.put(k.get(0), RandomEvents.text(row.toArray())));
        return out;
    }

    /**
     * On event time, keep-first holds each key's earliest event and keep-last its latest (ties: any of the events of
     * that time), however late within the watermark they arrive; both emit updates when an earlier (later) one comes.
     */
    @Test
    void eventTimeKeepsTheEarliestAndTheLatestRow() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(71, 3, 300);
        Map<String, List<Row>> out = run(RandomEvents.eventTable(shards)
                + sink("first", COLUMNS + ", PRIMARY KEY (k) NOT ENFORCED")
                + sink("last", COLUMNS + ", PRIMARY KEY (k) NOT ENFORCED")
                + dedup("first", "ts ASC") + dedup("last", "ts DESC"), "first", "last");
        List<Event> all = RandomEvents.all(shards);
        Map<String, List<Event>> perKey = new TreeMap<>();
        all.forEach(e -> perKey.computeIfAbsent(e.k(), k -> new ArrayList<>()).add(e));
        Map<Object, String> first = byKey(out.get("first"));
        Map<Object, String> last = byKey(out.get("last"));
        assertEquals(perKey.keySet(), first.keySet());
        assertEquals(perKey.keySet(), last.keySet());
        perKey.forEach((k, events) -> {
            long min = events.stream().mapToLong(Event::ts).min().orElseThrow();
            long max = events.stream().mapToLong(Event::ts).max().orElseThrow();
            assertTrue(events.stream().filter(e -> e.ts() == min).map(DeduplicateSqlTest::text).toList()
                    .contains(first.get(k)), "earliest of " + k + ": " + first.get(k));
            assertTrue(events.stream().filter(e -> e.ts() == max).map(DeduplicateSqlTest::text).toList()
                    .contains(last.get(k)), "latest of " + k + ": " + last.get(k));
        });
        long lastChanges = out.get("last").size();
        assertTrue(lastChanges > perKey.size() && lastChanges < all.size(),
                "later rows replace the last row, late ones do not: " + lastChanges);
    }

    /**
     * On processing time (one shard, so arrival order is the shard's): keep-first is insert-only, one row per key, the
     * first; keep-last ends with each key's last row.
     */
    @Test
    void processingTimeKeepsTheFirstAndTheLastRow() throws Exception {
        List<List<Event>> shards = RandomEvents.generate(72, 1, 400);
        String table = RandomEvents.eventTable(shards).replace(", WATERMARK FOR", ", p AS PROCTIME(), WATERMARK FOR");
        Map<String, List<Row>> out = run(table + sink("first", COLUMNS)
                + sink("last", COLUMNS + ", PRIMARY KEY (k) NOT ENFORCED")
                + dedup("first", "p") + dedup("last", "p DESC"), "first", "last");
        Map<String, String> first = new TreeMap<>();
        Map<String, String> last = new TreeMap<>();
        for (Event e : shards.get(0)) {
            first.putIfAbsent(e.k(), text(e));
            last.put(e.k(), text(e));
        }
        List<Row> firstRows = out.get("first");
        assertTrue(firstRows.stream().allMatch(r -> r.kind() == RowKind.INSERT), "keep-first is insert-only");
        assertEquals(new ArrayList<>(first.values()), firstRows.stream().map(r -> RandomEvents.text(r.fields()))
                .sorted(Comparator.naturalOrder()).toList());
        assertEquals(new TreeMap<Object, String>(last), byKey(out.get("last")));
    }
}
