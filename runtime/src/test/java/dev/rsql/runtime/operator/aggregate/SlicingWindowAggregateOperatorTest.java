package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.graph.WindowSlices;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.BytesSerializer;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.testing.TestOperatorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HOP and CUMULATE windows aggregated by slices over randomized rows of several keys, out of order within the
 * watermark and some late, compared with each row put into each of its windows directly: several size/slide ratios
 * (sizes that are not a multiple of the slide, and a slide longer than the size: rows between windows), in one run and
 * restored from a checkpoint taken halfway.
 */
class SlicingWindowAggregateOperatorTest {

    static final long DELAY = 3000;

    static WindowJob job(WindowSpec window) {
        return new WindowJob("slices", DELAY, (s, late) -> s.windowSlices(window).exchange(0)
                .slicedWindowAggregate(new int[]{0}, 4, 5, window, WindowJob.aggregates(), WindowJob.RESULT, late));
    }

    /** The windows {@code [start, end)} a row at {@code ts} falls into, assigned directly. */
    static List<long[]> windows(WindowSpec window, long ts) {
        List<long[]> out = new ArrayList<>();
        if (window.kind() == WindowSpec.Kind.HOP) {
            long last = ts - Math.floorMod(ts, window.slide());
            for (long start = last; start > ts - window.size(); start -= window.slide()) {
                out.add(new long[]{start, start + window.size()});
            }
        } else {
            long start = ts - Math.floorMod(ts, window.size());
            for (long end = start + window.slide(); end <= start + window.size(); end += window.slide()) {
                if (end > ts) {
                    out.add(new long[]{start, end});
                }
            }
        }
        return out;
    }

    /**
     * Each row into each of its windows still open at the watermark (late for the others); after each row the
     * watermark moves to {@code ts - delay} and the windows ended by it fire. Returns the results and the late rows.
     */
    static List<List<String>> expected(WindowSpec window, List<Object[]> rows) {
        Map<String, TreeMap<Long, List<Object[]>>> open = new TreeMap<>();    // key -> "start,end" as end -> rows
        Map<Long, Long> starts = new TreeMap<>();
        List<String> results = new ArrayList<>();
        List<String> late = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        for (Object[] row : rows) {
            long ts = (Long) row[2];
            for (long[] w : windows(window, ts)) {
                if (w[1] - 1 <= watermark) {
                    late.add(row[0] + "|" + ts + "|" + w[1]);
                } else {
                    starts.put(w[1], w[0]);
                    open.computeIfAbsent((String) row[0], k -> new TreeMap<>())
                            .computeIfAbsent(w[1], e -> new ArrayList<>()).add(row);
                }
            }
            watermark = Math.max(watermark, ts - DELAY);
            fire(open, starts, watermark, results);
        }
        fire(open, starts, Long.MAX_VALUE, results);
        results.sort(null);
        late.sort(null);
        return List.of(results, late);
    }

    private static void fire(Map<String, TreeMap<Long, List<Object[]>>> open, Map<Long, Long> starts, long watermark,
                             List<String> results) {
        open.forEach((k, windows) -> {
            for (Iterator<Map.Entry<Long, List<Object[]>>> it = windows.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Long, List<Object[]>> w = it.next();
                if (w.getKey() - 1 <= watermark) {
                    results.add(WindowJob.result(k, starts.get(w.getKey()), w.getKey(), w.getValue()));
                    it.remove();
                }
            }
        });
    }

    private static void check(WindowSpec window, long seed, boolean restore, Path dir) throws Exception {
        check(job(window), window, seed, restore, dir);
    }

    /** Runs {@code job} over random rows (restored halfway if {@code restore}) and checks it against {@link #expected}. */
    static void check(WindowJob job, WindowSpec window, long seed, boolean restore, Path dir) throws Exception {
        List<Object[]> rows = SessionWindowAggregateOperatorTest.rows(seed, 1200);
        List<List<String>> expected = expected(window, rows);
        assertTrue(expected.get(1).size() > 10 && expected.get(0).size() > 100, window + ": "
                + expected.get(1).size() + " late, " + expected.get(0).size() + " windows");
        job.run(rows, restore ? rows.size() / 2 : rows.size(), dir);
        assertEquals(expected.get(0), job.results(), window.toString());
        assertEquals(expected.get(1), job.lateRows(), window.toString());
    }

    @Test
    void randomizedHopWindowsOfSeveralRatios(@TempDir Path dir) throws Exception {
        long[][] slideSize = {{2000, 6000}, {4000, 10000}, {3000, 3000}, {1500, 4000}, {5000, 2000}};
        for (int i = 0; i < slideSize.length; i++) {
            check(WindowSpec.hop(2, true, slideSize[i][0], slideSize[i][1]), 10 + i, false, dir.resolve("" + i));
        }
    }

    @Test
    void randomizedCumulateWindows(@TempDir Path dir) throws Exception {
        check(WindowSpec.cumulate(2, true, 2000, 8000), 20, false, dir);
    }

    @Test
    void slicesRestoredFromACheckpointMakeTheirWindows(@TempDir Path dir) throws Exception {
        check(WindowSpec.hop(2, true, 4000, 10000), 30, true, dir.resolve("hop"));
        check(WindowSpec.cumulate(2, true, 2000, 8000), 31, true, dir.resolve("cumulate"));
    }

    @Test
    void aKeysSlicesLeaveStateWhenTheirLastWindowFired(@TempDir Path dir) throws Exception {
        WindowSpec hop = WindowSpec.hop(2, true, 2000, 6000);
        WindowAggregateNode inJob = (WindowAggregateNode) job(hop).graph.nodes().stream()
                .filter(n -> n instanceof WindowAggregateNode).findFirst().orElseThrow();
        WindowSlices slices = new WindowSlices(hop);
        WindowAggregateNode node = new WindowAggregateNode(inJob.id(), inJob.input(), new int[]{0}, 4, 5, true, slices,
                WindowJob.aggregates(), WindowJob.RESULT, null);     // no late rows here
        List<Row> out = new ArrayList<>();
        try (StoreStateBackend backend = StateBackendType.ROCKSDB.openBackend(dir, null, 128)) {
            SlicingWindowAggregateOperator operator = new SlicingWindowAggregateOperator(node, new Output() {
                @Override
                public void emit(Row row) {
                    out.add(row);
                }

                @Override
                public void emitWatermark(long watermark) {
                }
            });
            operator.open(new TestOperatorContext(backend));
            for (long ts = 0; ts < 20_000; ts += 500) {
                long sliceEnd = slices.sliceStart(ts) + slices.sliceSize();
                operator.process(new Row(RowKind.INSERT, new Object[]{ts % 1000 == 0 ? "a" : "b", 1L, ts, ts,
                        sliceEnd - slices.sliceSize(), sliceEnd}));
                operator.processWatermark(ts - 1000);
            }
            operator.processWatermark(Long.MAX_VALUE);
            operator.flush();
            // windows ending 2 s, 4 s, ..., 24 s (the last holding only the slice 18-20 s) for each of the two keys
            assertEquals(24, out.size());
            try (CloseableIterator<StateEntry<byte[]>> left = backend.valueState(node.id(), "slices",
                    BytesSerializer.INSTANCE).all()) {
                assertFalse(left.hasNext(), "slices kept after their last window fired");
            }
        }
    }
}
