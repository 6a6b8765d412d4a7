package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctArguments;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.testing.CountingStateBackend;
import dev.rsql.runtime.testing.TestOperatorContext;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COUNT(DISTINCT v) and SUM(DISTINCT v) in a GROUP BY keep one state entry per distinct value: a record costs the same
 * state reads, writes and bytes in a group holding 100,000 distinct values as in one holding 10 (counted through the
 * state backend, not timed), and the results stay right. The FILTERed variants of a DISTINCT aggregate share its
 * entries: a record costs the same state accesses with eight of them as with one. The operator's heap cache of active
 * groups and values is off here ({@code group.state-cache.keys} 0) unless a test says otherwise, so that every state
 * access the operator makes reaches the backend and is counted; with it on, the results are the same.
 */
class DistinctStateCostTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final RowType INPUT = RowType.builder().field("g", DataType.string()).field("v", BIGINT).build();
    private static final RowType OUTPUT = RowType.builder().field("g", DataType.string())
            .field("c", BIGINT.notNull()).field("s", BIGINT).build();
    private static final DistinctArguments V = new DistinctArguments(List.of(1), List.of(BIGINT));

    @TempDir
    Path dir;

    /** The operator under a counting backend, and what it emitted last per group. */
    private static final class Harness {
        final CountingStateBackend backend;
        final GroupAggregateOperator operator;
        final Map<Object, Object[]> last = new HashMap<>();

        Harness(KeyedStateBackend state, int cachedEntries) throws Exception {
            this(state, cachedEntries, INPUT, List.of(
                    new AggregateCall("COUNT(DISTINCT v)", () -> new CountFunction(1), -1, V),
                    new AggregateCall("SUM(DISTINCT v)", () -> SumFunction.sum(1, BIGINT, BIGINT), -1, V)),
                    true);
        }

        /** An aggregation grouped by field 0; {@code readsUpdates}: its input has deletes. */
        Harness(KeyedStateBackend state, int cachedEntries, RowType input, List<AggregateCall> calls,
                boolean readsUpdates) throws Exception {
            backend = new CountingStateBackend(state);
            Output output = new Output() {
                @Override
                public void emit(Row row) {
                    if (row.kind().isAccumulate()) {
                        last.put(row.get(0), row.fields());
                    } else if (row.kind() == RowKind.DELETE) {
                        last.remove(row.get(0));
                    }
                }

                @Override
                public void emitWatermark(long watermark) {
                }
            };
            operator = new GroupAggregateOperator("agg", input, new int[] {0}, calls, readsUpdates, 0, true, output);
            operator.open(new TestOperatorContext(backend,
                    Options.empty().with("group.state-cache.keys", String.valueOf(cachedEntries))));
        }

        void send(RowKind kind, Object... fields) throws Exception {
            operator.process(new Row(kind, fields));
        }
    }

    /** State accesses and bytes of 2,000 records (new values, repeats, retractions) into a group of this size. */
    private long[] costOfRecordsInAGroupOf(int size, Path stateDir, int cachedEntries) throws Exception {
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(stateDir, null, 128)) {
            Harness h = new Harness(state, cachedEntries);
            // Fixed-width values, so that every value costs the same bytes.
            for (int i = 0; i < size; i++) {
                h.send(RowKind.INSERT, "big", 1_000_000_000L + i);
            }
            Random r = new Random(151);
            List<Long> added = new ArrayList<>();
            h.backend.reset();
            for (int i = 0; i < 2000; i++) {
                int op = i % 4;
                if (op == 0 || op == 1) {
                    long v = 2_000_000_000L + i;  // a new distinct value
                    h.send(RowKind.INSERT, "big", v);
                    added.add(v);
                } else if (op == 2) {
                    h.send(RowKind.INSERT, "big", 1_000_000_000L + r.nextInt(size));  // a repeat
                } else {
                    h.send(RowKind.DELETE, "big", added.remove(added.size() - 1));  // its last copy goes
                }
            }
            long[] cost = {h.backend.accesses(), h.backend.bytes()};
            long distinct = size + added.size();
            long sum = (long) size * 1_000_000_000L + (long) size * (size - 1) / 2
                    + added.stream().mapToLong(Long::longValue).sum();
            Object[] result = h.last.get("big");
            assertEquals(distinct, result[1], "COUNT(DISTINCT v) of a group of " + size);
            assertEquals(sum, result[2], "SUM(DISTINCT v) of a group of " + size);
            h.operator.close();
            return cost;
        }
    }

    @Test
    void aRecordCostsTheSameInAGroupOf100kDistinctValuesAsInOneOf10() throws Exception {
        long[] small = costOfRecordsInAGroupOf(10, dir.resolve("small"), 0);
        long[] large = costOfRecordsInAGroupOf(100_000, dir.resolve("large"), 0);
        assertEquals(small[0], large[0], "state reads and writes of 2,000 records");
        assertEquals(small[1], large[1], "state bytes read and written by 2,000 records");
    }

    /**
     * COUNT(DISTINCT v) and {@code filtered} variants of it, {@code COUNT(DISTINCT v) FILTER (WHERE f<j>)}, fed 2,000
     * records (new values, repeats, retractions; each flag TRUE, FALSE or NULL by value): the state reads and writes
     * they cost, after checking the results.
     */
    private long[] costWithFilteredVariants(int filtered, Path stateDir) throws Exception {
        RowType.Builder input = RowType.builder().field("g", DataType.string()).field("v", BIGINT);
        RowType.Builder output = RowType.builder().field("g", DataType.string()).field("c", BIGINT.notNull());
        List<AggregateCall> calls = new ArrayList<>();
        calls.add(new AggregateCall("COUNT(DISTINCT v)", () -> new CountFunction(1), -1, V));
        for (int j = 0; j < filtered; j++) {
            input.field("f" + j, DataType.of(DataType.Kind.BOOLEAN));
            output.field("c" + j, BIGINT.notNull());
            calls.add(new AggregateCall("COUNT(DISTINCT v) FILTER f" + j, () -> new CountFunction(1), 2 + j, V));
        }
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(stateDir, null, 128)) {
            Harness h = new Harness(state, 0, input.build(), calls, true);
            List<Long> live = new ArrayList<>();
            Random r = new Random(7);
            h.backend.reset();
            for (int i = 0; i < 2000; i++) {
                if (i % 4 == 3) {
                    long v = live.remove(r.nextInt(live.size()));
                    h.operator.process(new Row(RowKind.DELETE, flaggedRow(v, filtered)));
                } else {
                    long v = r.nextInt(300);  // new values and repeats
                    live.add(v);
                    h.operator.process(new Row(RowKind.INSERT, flaggedRow(v, filtered)));
                }
            }
            Object[] result = h.last.get("k");
            assertEquals(live.stream().distinct().count(), result[1], "COUNT(DISTINCT v)");
            for (int j = 0; j < filtered; j++) {
                int f = j;
                assertEquals(live.stream().filter(v -> Boolean.TRUE.equals(flag(v, f))).distinct().count(),
                        result[2 + j], "COUNT(DISTINCT v) FILTER f" + j);
            }
            long[] cost = {h.backend.accesses(), h.backend.writes()};
            h.operator.close();
            return cost;
        }
    }

    private static Boolean flag(long v, int filter) {
        long m = (v + filter) % 3;
        return m == 0 ? Boolean.TRUE : m == 1 ? Boolean.FALSE : null;
    }

    private static Object[] flaggedRow(long v, int filtered) {
        Object[] row = new Object[2 + filtered];
        row[0] = "k";
        row[1] = v;
        for (int j = 0; j < filtered; j++) {
            row[2 + j] = flag(v, j);
        }
        return row;
    }

    @Test
    void theHeapCacheKeepsTheResults() throws Exception {
        // A cache smaller than the large group's values: entries are evicted (written back) and read again.
        costOfRecordsInAGroupOf(10, dir.resolve("small-cached"), 1000);
        costOfRecordsInAGroupOf(100_000, dir.resolve("large-cached"), 1000);
    }

    @Test
    void aRecordCostsTheSameStateAccessesWithEightFilteredVariantsAsWithOne() throws Exception {
        long[] one = costWithFilteredVariants(1, dir.resolve("one"));
        long[] eight = costWithFilteredVariants(8, dir.resolve("eight"));
        assertEquals(one[0], eight[0], "state reads and writes of 2,000 records");
        assertEquals(one[1], eight[1], "state writes of 2,000 records");
        // Per record: the group's row and the value's one entry, each read once and written at most once.
        assertTrue(eight[0] <= 4 * 2000, "state accesses of 2,000 records: " + eight[0]);
    }

    @Test
    void overInsertsOnlyAValueSeenAgainCostsNoWriteOfItsEntry() throws Exception {
        RowType input = RowType.builder().field("g", DataType.string()).field("v", BIGINT)
                .field("f0", DataType.of(DataType.Kind.BOOLEAN)).build();
        List<AggregateCall> calls = List.of(
                new AggregateCall("COUNT(DISTINCT v)", () -> new CountFunction(1), -1, V),
                new AggregateCall("COUNT(DISTINCT v) FILTER f0", () -> new CountFunction(1), 2, V));
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(dir.resolve("inserts"), null, 128)) {
            Harness h = new Harness(state, 0, input, calls, false);
            for (long v = 0; v < 1000; v++) {
                h.operator.process(new Row(RowKind.INSERT, flaggedRow(v, 1)));
            }
            h.backend.reset();
            for (long v = 0; v < 1000; v++) {
                h.operator.process(new Row(RowKind.INSERT, flaggedRow(v, 1)));
            }
            // Each repeat reads the group's row and the value's entry, and writes the group's row only.
            assertEquals(3000, h.backend.accesses(), "state accesses of 1,000 repeated values");
            assertEquals(1000, h.backend.writes(), "state writes of 1,000 repeated values");
            assertEquals(1000L, h.last.get("k")[1]);
            assertEquals(334L, h.last.get("k")[2]);  // v % 3 == 0
            h.operator.close();
        }
    }
}
