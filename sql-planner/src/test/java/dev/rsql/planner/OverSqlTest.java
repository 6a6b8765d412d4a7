package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.rsql.planner.RandomEvents.text;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OVER aggregations over randomized input from three shards, out of order within the watermark delay, on several
 * keys, compared with the windows computed here row by row.
 */
class OverSqlTest {

    private static final long BASE = 1_700_000_000_000L;
    private static final long DELAY = 2000;
    private static final String AGGS = "COUNT(*) OVER w, COUNT(v) OVER w, SUM(v) OVER w, MIN(v) OVER w,"
            + " MAX(v) OVER w, AVG(v) OVER w";
    private static final String COLUMNS = "k VARCHAR, v BIGINT, ts TIMESTAMP(3), c BIGINT, cv BIGINT, s BIGINT,"
            + " mn BIGINT, mx BIGINT, av BIGINT";

    /** One event; {@code v} is NULL now and then. */
    private record Event(String k, Long v, long ts) {
        String json() {
            return "{\"k\":\"" + k + "\",\"v\":" + v + ",\"ts\":" + ts + "}";
        }
    }

    /**
     * Events per shard whose times run forward with jitter below half the watermark delay, so none is late. With
     * {@code unique}, no two events of a key share a time (ROWS windows then have one order); else times are coarse,
     * so that many do (RANGE peers).
     */
    private static List<List<Event>> generate(long seed, int shards, int perShard, boolean unique) {
        Random r = new Random(seed);
        Set<String> used = new HashSet<>();
        List<List<Event>> out = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            List<Event> events = new ArrayList<>();
            long t = BASE;
            for (int i = 0; i < perShard; i++) {
                t += unique ? r.nextInt(100) : 100L * r.nextInt(3);
                long ts = t - (unique ? r.nextInt((int) DELAY / 2) : 100L * r.nextInt(10));
                String k = "k" + r.nextInt(4);
                while (unique && !used.add(k + ts)) {
                    ts++;
                }
                events.add(new Event(k, r.nextInt(8) == 0 ? null : (long) r.nextInt(100), ts));
            }
            out.add(events);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String table(List<List<Event>> shards) {
        String id = "over-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.stream().map(events -> events.stream().map(Event::json).toList())
                .toArray(List[]::new));
        return "CREATE TABLE ev (k VARCHAR, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, " + DELAY
                + ")) WITH (type = 'values', id = '" + id + "');\n";
    }

    /**
     * Each event with COUNT(*), COUNT(v), SUM(v), MIN(v), MAX(v), AVG(v) over its window: the events of its key
     * ordered by time; for ROWS the {@code preceding} ones before it (all: -1), for RANGE those at most
     * {@code preceding} ms older (all: -1), peers of the same time included.
     */
    private static List<String> expected(List<List<Event>> shards, boolean rows, long preceding) {
        List<Event> all = shards.stream().flatMap(List::stream)
                .sorted(Comparator.comparingLong(Event::ts)).toList();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Event e = all.get(i);
            List<Event> key = all.stream().filter(x -> x.k().equals(e.k())).toList();
            int at = key.indexOf(e);
            List<Event> window = new ArrayList<>();
            for (int j = 0; j < key.size(); j++) {
                Event x = key.get(j);
                boolean in = rows ? j <= at && (preceding < 0 || at - j <= preceding)
                        : x.ts() <= e.ts() && (preceding < 0 || e.ts() - x.ts() <= preceding);
                if (in) {
                    window.add(x);
                }
            }
            List<Long> vs = window.stream().map(Event::v).filter(Objects::nonNull).toList();
            Long sum = vs.isEmpty() ? null : vs.stream().mapToLong(Long::longValue).sum();
            out.add(text(e.k(), e.v(), e.ts(), (long) window.size(), (long) vs.size(), sum,
                    vs.stream().min(Long::compare).orElse(null), vs.stream().max(Long::compare).orElse(null),
                    sum == null ? null : sum / vs.size()));
        }
        out.sort(null);
        return out;
    }

    private static List<String> runOver(List<List<Event>> shards, String window) throws Exception {
        List<Row> rows = run(table(shards) + sink("o", COLUMNS) + "INSERT INTO o SELECT k, v, ts, " + AGGS
                + " FROM ev WINDOW w AS (" + window + ");\n", "o").get("o");
        return RandomEvents.texts(rows);
    }

    @Test
    void rowsBetweenPrecedingAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(71, 3, 300, true);
        assertEquals(expected(shards, true, 3),
                runOver(shards, "PARTITION BY k ORDER BY ts ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rowsBetweenUnboundedPrecedingAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(72, 3, 300, true);
        assertEquals(expected(shards, true, -1),
                runOver(shards, "PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rangeBetweenAnIntervalAndCurrentRowOnEventTime() throws Exception {
        List<List<Event>> shards = generate(73, 3, 300, false);
        assertEquals(expected(shards, false, 500), runOver(shards,
                "PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '0.5' SECOND PRECEDING AND CURRENT ROW"));
    }

    @Test
    void rangeUnboundedIsTheDefaultFrameOnEventTime() throws Exception {
        List<List<Event>> shards = generate(74, 3, 300, false);
        assertEquals(expected(shards, false, -1), runOver(shards, "PARTITION BY k ORDER BY ts"));
    }
}
