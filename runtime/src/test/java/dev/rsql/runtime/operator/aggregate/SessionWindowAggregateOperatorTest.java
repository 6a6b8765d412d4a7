package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.testing.CollectSinkFactory;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session windows over randomized rows of several keys, out of order within the watermark, with rows that bridge two
 * sessions and late rows, compared with sessions computed directly; once in one run and once restored from a
 * checkpoint taken halfway (with fewer keys cached than there are, so sessions also go to state and back).
 */
class SessionWindowAggregateOperatorTest {

    static final long DELAY = 3000;
    static final long GAP = 2000;

    static WindowJob job() {
        return new WindowJob("sessions", DELAY, (s, late) -> s.window(WindowSpec.session(2, true, GAP)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, true, WindowJob.aggregates(), EmitSpec.ON_WATERMARK,
                        WindowJob.RESULT, late));
    }

    /** Rows {@code k, v, ts}: bursts per key, out of order by up to the watermark delay, some rows late. */
    static List<Object[]> rows(long seed, int n) {
        Random r = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        long t = 1_700_000_000_000L;
        for (int i = 0; i < n; i++) {
            t += r.nextInt(300);
            if (r.nextInt(50) == 0) {
                t += 2000 + r.nextInt(4000);
            }
            long ts = r.nextInt(12) == 0 ? t - DELAY - r.nextInt(6000) : t - r.nextInt((int) DELAY);
            rows.add(new Object[]{"k" + r.nextInt(6), r.nextInt(8) == 0 ? null : (long) r.nextInt(100), ts});
        }
        return rows;
    }

    /** One open session of the direct computation. */
    record Session(long start, long end, List<Object[]> rows) {
    }

    /**
     * Sessions as the rows arrive: a row's {@code [ts, ts + gap)} absorbs the key's open sessions it touches, unless
     * the merged session has ended at the watermark (then the row is late); after each row the watermark moves to
     * {@code ts - delay} and sessions ended by it close. Returns the results and the late rows ({@code k|ts|end}).
     */
    static List<List<String>> expected(List<Object[]> rows, int[] merges) {
        Map<String, List<Session>> open = new HashMap<>();
        List<String> results = new ArrayList<>();
        List<String> late = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        for (Object[] row : rows) {
            long ts = (Long) row[2];
            List<Session> sessions = open.computeIfAbsent((String) row[0], k -> new ArrayList<>());
            long start = ts;
            long end = ts + GAP;
            List<Session> touched = new ArrayList<>();
            for (Session s : sessions) {
                if (s.start() <= ts + GAP && s.end() >= ts) {
                    touched.add(s);
                    start = Math.min(start, s.start());
                    end = Math.max(end, s.end());
                }
            }
            if (end - 1 <= watermark) {
                late.add(row[0] + "|" + ts + "|" + end);
            } else {
                List<Object[]> merged = new ArrayList<>();
                merged.add(row);
                touched.forEach(s -> merged.addAll(s.rows()));
                merges[0] += touched.size() > 1 ? 1 : 0;
                sessions.removeAll(touched);
                sessions.add(new Session(start, end, merged));
            }
            watermark = Math.max(watermark, ts - DELAY);
            close(open, watermark, results);
        }
        close(open, Long.MAX_VALUE, results);
        results.sort(null);
        late.sort(null);
        return List.of(results, late);
    }

    private static void close(Map<String, List<Session>> open, long watermark, List<String> results) {
        open.forEach((k, sessions) -> {
            for (Iterator<Session> it = sessions.iterator(); it.hasNext(); ) {
                Session s = it.next();
                if (s.end() - 1 <= watermark) {
                    results.add(WindowJob.result(k, s.start(), s.end(), s.rows()));
                    it.remove();
                }
            }
        });
    }

    private static void check(long seed, boolean restore, Path dir) throws Exception {
        List<Object[]> rows = rows(seed, 1500);
        int[] merges = new int[1];
        List<List<String>> expected = expected(rows, merges);
        assertTrue(merges[0] > 10 && expected.get(1).size() > 10 && expected.get(0).size() > 100,
                "the rows should bridge sessions and come late: " + merges[0] + " merges, "
                        + expected.get(1).size() + " late, " + expected.get(0).size() + " sessions");
        WindowJob job = job();
        job.run(rows, restore ? rows.size() / 2 : rows.size(), dir);
        assertEquals(expected.get(0), job.results());
        assertEquals(expected.get(1), job.lateRows());
    }

    @Test
    void randomizedSessionsMergeAndDropLateRows(@TempDir Path dir) throws Exception {
        check(1, false, dir);
        check(2, false, dir.resolve("2"));
    }

    @Test
    void aLateRowWithinTheAllowedLatenessMergesFiredSessionsAndUpdatesTheirResults(@TempDir Path dir)
            throws Exception {
        String id = UUID.randomUUID().toString();
        // One shard, watermark = ts - 1000, gap 2 s, allowed lateness 5 s, late results at once.
        ValuesSourceFactory.register(id, List.of(
                "{\"k\":\"a\",\"v\":1,\"ts\":1000}",
                "{\"k\":\"a\",\"v\":1,\"ts\":5000}",     // watermark 4000: [1000, 3000) fires
                "{\"k\":\"a\",\"v\":1,\"ts\":9000}",     // watermark 8000: [5000, 7000) fires, [1000, 3000) is gone
                "{\"k\":\"a\",\"v\":1,\"ts\":3500}",     // late, in the lateness: [3500, 7000) replaces [5000, 7000)
                "{\"k\":\"a\",\"v\":1,\"ts\":2900}",     // and [2900, 7000) it
                "{\"k\":\"a\",\"v\":1,\"ts\":20000}",    // watermark 19000: [2900, 7000) is gone
                "{\"k\":\"a\",\"v\":1,\"ts\":1500}"));   // late: dropped
        GraphBuilder b = new GraphBuilder("late-sessions");
        WindowAggregationTest.source(b, id, 1000).window(WindowSpec.session(2, true, GAP)).exchange(0)
                .windowAggregate(new int[]{0}, 4, 5, true, true, WindowAggregationTest.countAndSum(),
                        new EmitSpec(-1, 0, 5000), WindowAggregationTest.resultType(), null)
                .sinkTo(WindowAggregationTest.table("out", "collect", WindowAggregationTest.resultType(),
                        Map.of("id", id + "-out")));
        WindowAggregationTest.run(b, dir);
        Map<String, Long> net = new TreeMap<>();
        List<String> changes = new ArrayList<>();
        for (Row r : CollectSinkFactory.rows(id + "-out")) {
            String text = r.get(0) + "[" + r.get(3) + "," + r.get(4) + ")=" + r.get(1);
            changes.add(r.kind().shortString() + text);
            net.merge(text, r.kind().isAccumulate() ? 1L : -1L, Long::sum);
        }
        net.values().removeIf(n -> n == 0);
        assertEquals(Map.of("a[1000,3000)=1", 1L, "a[2900,7000)=3", 1L, "a[9000,11000)=1", 1L,
                "a[20000,22000)=1", 1L), net, changes.toString());
        assertTrue(changes.contains("-Da[5000,7000)=1") && changes.contains("-Da[3500,7000)=2"), changes.toString());
    }

    @Test
    void sessionsRestoredFromACheckpointGoOnMerging(@TempDir Path dir) throws Exception {
        check(3, true, dir);
    }
}
