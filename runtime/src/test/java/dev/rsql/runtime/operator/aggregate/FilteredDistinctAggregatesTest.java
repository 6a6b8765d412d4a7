package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.aggregate.Accumulators;
import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.DistinctArguments;
import dev.rsql.runtime.aggregate.MinMaxFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.FieldSerializer;
import dev.rsql.runtime.state.store.StoreStateBackend;
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
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DISTINCT aggregates with FILTERs sharing their maps, against a straightforward computation over the rows a group
 * holds: random inserts and retractions (NULL arguments, FILTERs TRUE, FALSE and NULL) through a group aggregation
 * keeping the maps in state, and random partial accumulators merged in the heap (then rows taken back).
 */
class FilteredDistinctAggregatesTest {

    private static final DataType BIGINT = DataType.of(DataType.Kind.BIGINT);
    private static final DataType BOOLEAN = DataType.of(DataType.Kind.BOOLEAN);
    // g, v, w, p, q
    private static final RowType INPUT = RowType.builder().field("g", DataType.string()).field("v", BIGINT)
            .field("w", DataType.string()).field("p", BOOLEAN).field("q", BOOLEAN).build();
    private static final DistinctArguments V = new DistinctArguments(List.of(1), List.of(BIGINT));
    private static final DistinctArguments W = new DistinctArguments(List.of(2), List.of(DataType.string()));
    private static final DistinctArguments VW = new DistinctArguments(List.of(1, 2),
            List.of(BIGINT, DataType.string()));
    private static final int P = 3;
    private static final int Q = 4;

    @TempDir
    Path dir;

    /** An aggregate and how to compute it from a group's rows. */
    private record Case(AggregateCall call, DataType type, Function<List<Object[]>, Object> expected) {
    }

    private static Predicate<Object[]> passes(int filter) {
        return r -> filter < 0 || Boolean.TRUE.equals(r[filter]);
    }

    private static List<Object> distinctValues(List<Object[]> rows, int filter, int... fields) {
        return rows.stream().filter(passes(filter))
                .filter(r -> Arrays.stream(fields).allMatch(f -> r[f] != null))
                .map(r -> (Object) Arrays.stream(fields).mapToObj(f -> r[f]).toList())
                .distinct().toList();
    }

    private static Case countDistinct(DistinctArguments args, int filter, int... fields) {
        return new Case(new AggregateCall("COUNT(DISTINCT) FILTER " + filter, () -> new CountFunction(fields[0]),
                filter, args), BIGINT.notNull(), rows -> (long) distinctValues(rows, filter, fields).size());
    }

    private static final List<Case> CASES = List.of(
            new Case(new AggregateCall("COUNT(*)", () -> new CountFunction(-1)), BIGINT.notNull(),
                    rows -> (long) rows.size()),
            countDistinct(V, -1, 1),
            countDistinct(V, P, 1),
            new Case(new AggregateCall("COUNT(*) FILTER q", () -> new CountFunction(-1), Q), BIGINT.notNull(),
                    rows -> rows.stream().filter(passes(Q)).count()),
            countDistinct(V, Q, 1),
            new Case(new AggregateCall("SUM(DISTINCT v) FILTER p", () -> SumFunction.sum(1, BIGINT, BIGINT), P, V),
                    BIGINT, rows -> {
                        List<Object> vs = distinctValues(rows, P, 1);
                        return vs.isEmpty() ? null : vs.stream().mapToLong(k -> (Long) ((List<?>) k).get(0)).sum();
                    }),
            countDistinct(W, Q, 2),
            countDistinct(VW, P, 1, 2),
            new Case(new AggregateCall("MAX(DISTINCT v) FILTER q", () -> new MinMaxFunction(1, BIGINT, true, true),
                    Q, V), BIGINT, rows -> distinctValues(rows, Q, 1).stream()
                    .map(k -> (Long) ((List<?>) k).get(0)).max(Long::compare).orElse(null)),
            countDistinct(W, -1, 2));

    private static Object[] randomRow(Random r) {
        Boolean[] flags = {Boolean.TRUE, Boolean.FALSE, null};
        return new Object[] {"g" + r.nextInt(3), r.nextInt(8) == 0 ? null : (long) r.nextInt(12),
                r.nextInt(8) == 0 ? null : String.valueOf((char) ('a' + r.nextInt(5))),
                flags[r.nextInt(3)], flags[r.nextInt(3)]};
    }

    private static Object[] expected(String group, List<Object[]> rows, List<Case> cases) {
        Object[] out = new Object[1 + cases.size()];
        out[0] = group;
        for (int i = 0; i < cases.size(); i++) {
            out[1 + i] = cases.get(i).expected().apply(rows);
        }
        return out;
    }

    @Test
    void groupAggregationKeepsFilteredDistinctCountsThroughRetractions() throws Exception {
        RowType.Builder output = RowType.builder().field("g", DataType.string());
        for (int i = 0; i < CASES.size(); i++) {
            output.field("a" + i, CASES.get(i).type());
        }
        Map<Object, Object[]> emitted = new HashMap<>();
        Output out = new Output() {
            @Override
            public void emit(Row row) {
                if (row.kind().isAccumulate()) {
                    emitted.put(row.get(0), row.fields());
                } else if (row.kind() == RowKind.DELETE) {
                    emitted.remove(row.get(0));
                }
            }

            @Override
            public void emitWatermark(long watermark) {
            }
        };
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(dir, null, 128)) {
            GroupAggregateOperator op = new GroupAggregateOperator("agg", INPUT, new int[] {0},
                    CASES.stream().map(Case::call).toList(), true, 0, true, out);
            op.open(new TestOperatorContext(state));
            Random r = new Random(20261202);
            Map<String, List<Object[]>> live = new HashMap<>();
            for (int i = 0; i < 6000; i++) {
                Object[] row;
                String g;
                if (r.nextInt(5) < 2 && live.values().stream().anyMatch(l -> !l.isEmpty())) {
                    List<String> groups = live.keySet().stream().filter(k -> !live.get(k).isEmpty()).sorted().toList();
                    g = groups.get(r.nextInt(groups.size()));
                    row = live.get(g).remove(r.nextInt(live.get(g).size()));
                    op.process(new Row(r.nextBoolean() ? RowKind.DELETE : RowKind.UPDATE_BEFORE, row));
                } else {
                    row = randomRow(r);
                    g = (String) row[0];
                    live.computeIfAbsent(g, k -> new ArrayList<>()).add(row);
                    op.process(new Row(r.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER, row));
                }
                List<Object[]> rows = live.get(g);
                if (rows.isEmpty()) {
                    assertEquals(null, emitted.get(g), "group " + g + " without rows, after record " + i);
                } else {
                    assertArrayEquals(expected(g, rows, CASES), emitted.get(g), "group " + g + " after record " + i);
                }
            }
            op.close();
        }
    }

    @Test
    void mergedPartialAccumulatorsGiveTheAggregatesOfAllTheirRows() {
        // Several arguments cannot merge (their values are not kept as such): left out here.
        List<Case> cases = CASES.stream().filter(c -> c.call().distinct() != VW).toList();
        List<AggregateCall> calls = cases.stream().map(Case::call).toList();
        Random r = new Random(42);
        for (boolean retracts : new boolean[] {true, false}) {
            Accumulators accumulators = new Accumulators(calls, retracts);
            for (int round = 0; round < 200; round++) {
                List<Object[]> rows = new ArrayList<>();
                Object[] all = accumulators.create();
                Object[] merged = accumulators.create();
                for (int part = 0; part < 3; part++) {
                    Object[] partial = accumulators.create();
                    for (int i = r.nextInt(15); i > 0; i--) {
                        Object[] row = randomRow(r);
                        rows.add(row);
                        accumulators.accumulate(partial, row);
                        accumulators.accumulate(all, row);
                    }
                    accumulators.merge(merged, partial);
                }
                Object[] fromAll = new Object[1 + calls.size()];
                Object[] fromMerged = new Object[1 + calls.size()];
                accumulators.values(all, fromAll, 1);
                accumulators.values(merged, fromMerged, 1);
                Object[] expected = expected(null, rows, cases);
                assertArrayEquals(expected, fromAll, "accumulated, round " + round);
                assertArrayEquals(expected, fromMerged, "merged, round " + round);
                if (retracts) {
                    // The merged counts are right too: taking rows back leaves the aggregates of the others.
                    for (int i = rows.size() / 2; i > 0; i--) {
                        accumulators.retract(merged, rows.remove(r.nextInt(rows.size())));
                    }
                    accumulators.values(merged, fromMerged, 1);
                    assertArrayEquals(expected(null, rows, cases), fromMerged, "merged, then half taken back, round "
                            + round);
                }
            }
        }
    }

    @Test
    void stateWithAMapPerFilteredDistinctAggregateIsRefused() throws Exception {
        try (StoreStateBackend state = StateBackendType.ROCKSDB.openBackend(dir, null, 128)) {
            // What an older version kept for COUNT(DISTINCT v) FILTER p, the second aggregate: a map of its own.
            state.valueState("agg", "view-2-0", FieldSerializer.of(BIGINT.notNull()))
                    .put(new byte[] {1}, new byte[] {2}, 1L);
            GroupAggregateOperator op = new GroupAggregateOperator("agg", INPUT, new int[] {0},
                    CASES.stream().map(Case::call).toList(), true, 0, true, null);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> op.open(new TestOperatorContext(state)));
            assertTrue(e.getMessage().contains("fresh state"), e.getMessage());
        }
    }
}
