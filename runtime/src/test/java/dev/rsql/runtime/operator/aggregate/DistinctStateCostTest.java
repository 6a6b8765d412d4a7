package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GroupAggregateNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.rocksdb.RocksDbStateBackend;
import dev.rsql.runtime.table.TableDescriptor;
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

/**
 * COUNT(DISTINCT v) and SUM(DISTINCT v) in a GROUP BY keep one state entry per distinct value: a record costs the same
 * state reads, writes and bytes in a group holding 100,000 distinct values as in one holding 10 (counted through the
 * state backend, not timed), and the results stay right. The operator's heap cache of active groups and values is
 * off here ({@code group.state-cache.keys} 0), so that every state access the operator makes reaches the backend and
 * is counted; with it on, the results are the same.
 */
class DistinctStateCostTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final RowType INPUT = RowType.builder().field("g", DataType.string()).field("v", BIGINT).build();
    private static final RowType OUTPUT = RowType.builder().field("g", DataType.string())
            .field("c", BIGINT.notNull()).field("s", BIGINT).build();

    @TempDir
    Path dir;

    /** The operator under a counting backend, and what it emitted last per group. */
    private static final class Harness {
        final CountingStateBackend backend;
        final GroupAggregateOperator operator;
        final Map<Object, Object[]> last = new HashMap<>();

        Harness(KeyedStateBackend state, int cachedEntries) throws Exception {
            backend = new CountingStateBackend(state);
            TableDescriptor table = WindowAggregationTest.table("ev", "values", INPUT, Map.of("id", "unused"));
            List<AggregateCall> calls = List.of(
                    new AggregateCall("COUNT(DISTINCT v)",
                            () -> new DistinctFunction(new CountFunction(1), new int[] {1}, List.of(BIGINT))),
                    new AggregateCall("SUM(DISTINCT v)",
                            () -> new DistinctFunction(SumFunction.sum(1, BIGINT, BIGINT), new int[] {1},
                                    List.of(BIGINT))));
            GroupAggregateNode node = new GroupAggregateNode("agg", new SourceNode("src", table, ErrorPolicy.FAIL, null),
                    new int[] {0}, calls, OUTPUT, 0, true);
            operator = new GroupAggregateOperator(node, new Output() {
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
            });
            operator.open(new TestOperatorContext(backend,
                    Options.empty().with("group.state-cache.keys", String.valueOf(cachedEntries))));
        }

        void send(RowKind kind, String g, long v) throws Exception {
            operator.process(new Row(kind, new Object[] {g, v}));
        }
    }

    /** State accesses and bytes of 2,000 records (new values, repeats, retractions) into a group of this size. */
    private long[] costOfRecordsInAGroupOf(int size, Path stateDir, int cachedEntries) throws Exception {
        try (RocksDbStateBackend state = RocksDbStateBackend.open(stateDir, null, 128)) {
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

    @Test
    void theHeapCacheKeepsTheResults() throws Exception {
        // A cache smaller than the large group's values: entries are evicted (written back) and read again.
        costOfRecordsInAGroupOf(10, dir.resolve("small"), 1000);
        costOfRecordsInAGroupOf(100_000, dir.resolve("large"), 1000);
    }
}
