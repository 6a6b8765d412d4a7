package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.store.StoreStateBackend;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.testing.CountingStateBackend;
import dev.rsql.runtime.testing.TestOperatorContext;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A regular join keeps one state entry per distinct row of a side: a row arriving on the side that holds 20,000 rows
 * of its key costs the same state reads, writes and bytes as on a side holding 10 (counted through the state backend,
 * not timed), and the joined rows stay right.
 */
class JoinStateCostTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final RowType SIDE = RowType.builder().field("k", BIGINT).field("v", BIGINT).build();
    private static final RowType TAGGED = RowType.builder().field("side", DataType.of(DataType.Kind.INT))
            .field("key", BIGINT).field("lk", BIGINT).field("lv", BIGINT).field("rk", BIGINT).field("rv", BIGINT)
            .build();
    private static final RowType JOINED = RowType.builder().field("lk", BIGINT).field("lv", BIGINT)
            .field("rk", BIGINT).field("rv", BIGINT).build();

    @TempDir
    Path dir;

    private static TableDescriptor tagged() {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < TAGGED.size(); i++) {
            columns.add(Column.physical(TAGGED.name(i), TAGGED.type(i)));
        }
        return new TableDescriptor("tagged", new TableSchema(columns, List.of()), "values",
                new Options(Map.of("id", "unused")));
    }

    /** State accesses and bytes of 1,500 left rows (new rows, then retractions) into a key holding {@code size}. */
    private long[] costOfLeftRowsInAKeyOf(int size, Path stateDir) throws Exception {
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(stateDir, null, 128)) {
            CountingStateBackend backend = new CountingStateBackend(state);
            JoinNode node = new JoinNode("join", new SourceNode("src", tagged(), ErrorPolicy.FAIL, null),
                    JoinNode.Type.FULL, 1, SIDE, SIDE, JOINED, null, "join", 0);
            Map<List<Object>, Integer> table = new HashMap<>();
            JoinOperator join = new JoinOperator(node, new Output() {
                @Override
                public void emit(Row row) {
                    table.merge(Arrays.asList(row.fields()), row.kind().isAccumulate() ? 1 : -1, Integer::sum);
                }

                @Override
                public void emitWatermark(long watermark) {
                }
            });
            join.open(new TestOperatorContext(backend));
            // One right row of the key (FULL: its match count changes with every left row), then the left rows.
            join.process(new Row(RowKind.INSERT, new Object[] {1, 7L, null, null, 7L, 0L}));
            for (long i = 0; i < size; i++) {
                join.process(new Row(RowKind.INSERT, new Object[] {0, 7L, 7L, 1_000_000_000L + i, null, null}));
            }
            backend.reset();
            for (long i = 0; i < 1000; i++) {
                join.process(new Row(RowKind.INSERT, new Object[] {0, 7L, 7L, 2_000_000_000L + i, null, null}));
            }
            for (long i = 0; i < 500; i++) {
                join.process(new Row(RowKind.DELETE, new Object[] {0, 7L, 7L, 2_000_000_000L + i, null, null}));
            }
            long[] cost = {backend.accesses(), backend.bytes()};
            table.values().removeIf(n -> n == 0);
            assertEquals(size + 500, table.size(), "joined rows of a key of " + size);
            assertEquals(1, table.values().stream().distinct().count(), "each joined row once");
            join.close();
            return cost;
        }
    }

    @Test
    void aRowCostsTheSameOnASideOf20kRowsOfItsKeyAsOnOneOf10() throws Exception {
        long[] small = costOfLeftRowsInAKeyOf(10, dir.resolve("small"));
        long[] large = costOfLeftRowsInAKeyOf(20_000, dir.resolve("large"));
        assertEquals(small[0], large[0], "state reads and writes of 1,500 rows");
        assertEquals(small[1], large[1], "state bytes read and written by 1,500 rows");
    }
}
