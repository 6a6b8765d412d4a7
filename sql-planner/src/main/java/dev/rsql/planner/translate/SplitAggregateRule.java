package dev.rsql.planner.translate;

import dev.rsql.planner.functions.BuiltinFunctions;
import dev.rsql.planner.physical.rules.WindowColumns;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a non-window GROUP BY with DISTINCT aggregates over skewed keys, as Flink's rule of this name
 * ({@code table.optimizer.distinct-agg.split.enabled}): {@code COUNT(DISTINCT x) ... GROUP BY k} becomes an inner
 * aggregate grouped by {@code (k, bucket)} with {@code bucket = MOD(HASH_CODE(x), buckets)}, which spreads a hot key's
 * distinct values over many groups, and an outer aggregate by {@code k} combining the buckets' partial results
 * (COUNT by $SUM0; SUM, MIN, MAX by themselves). The inner aggregate emits a changelog, which the outer one reads.
 * Applies when every DISTINCT aggregate has the same one argument and no FILTER, and every aggregate is COUNT, SUM,
 * $SUM0, MIN or MAX; otherwise the aggregate is left as it is.
 */
public final class SplitAggregateRule {

    private static final SqlOperator HASH_CODE = BuiltinFunctions.operators().stream()
            .filter(o -> o.getName().equalsIgnoreCase("HASH_CODE")).findFirst().orElseThrow();

    private final int buckets;

    private SplitAggregateRule(int buckets) {
        this.buckets = buckets;
    }

    /**
     * The plan with every splittable aggregate split into {@code buckets} buckets per group. One bottom-up pass: the
     * inner aggregate it creates is splittable too and must not be split again.
     */
    public static RelNode apply(RelNode rel, int buckets) {
        SplitAggregateRule rule = new SplitAggregateRule(buckets);
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited instanceof LogicalAggregate && splittable((LogicalAggregate) visited)
                        ? rule.split((LogicalAggregate) visited) : visited;
            }
        });
    }

    private static boolean splittable(LogicalAggregate agg) {
        if (agg.getGroupType() != Aggregate.Group.SIMPLE || agg.getGroupCount() == 0
                || WindowColumns.groupsByWindow(agg)) {
            return false;
        }
        Integer distinctArg = null;
        for (AggregateCall call : agg.getAggCallList()) {
            if (outerFunction(call) == null) {
                return false;
            }
            if (call.isDistinct()) {
                if (call.getArgList().size() != 1 || call.filterArg >= 0
                        || distinctArg != null && distinctArg != call.getArgList().get(0)) {
                    return false;
                }
                distinctArg = call.getArgList().get(0);
            }
        }
        return distinctArg != null;
    }

    /** How the outer aggregate combines the buckets' results of a call, or null when it cannot. */
    private static SqlAggFunction outerFunction(AggregateCall call) {
        switch (call.getAggregation().getKind()) {
            case COUNT:
            case SUM0:
                return SqlStdOperatorTable.SUM0;
            case SUM:
                return SqlStdOperatorTable.SUM;
            case MIN:
                return SqlStdOperatorTable.MIN;
            case MAX:
                return SqlStdOperatorTable.MAX;
            default:
                return null;
        }
    }

    private RelNode split(LogicalAggregate agg) {
        RelNode input = agg.getInput();
        int distinctArg = agg.getAggCallList().stream().filter(AggregateCall::isDistinct).findFirst().orElseThrow()
                .getArgList().get(0);
        RelBuilder b = RelFactories.LOGICAL_BUILDER.create(agg.getCluster(), null);
        RexBuilder rex = b.getRexBuilder();
        b.push(input);
        List<RexNode> fields = new ArrayList<>(b.fields());
        fields.add(bucket(rex, b.field(distinctArg), buckets));
        b.project(fields);
        int bucketField = input.getRowType().getFieldCount();
        int groups = agg.getGroupCount();
        List<AggregateCall> inner = new ArrayList<>();
        List<AggregateCall> outer = new ArrayList<>();
        for (int i = 0; i < agg.getAggCallList().size(); i++) {
            AggregateCall c = agg.getAggCallList().get(i);
            inner.add(c.adaptTo(b.peek(), c.getArgList(), c.filterArg, agg.getGroupCount(), groups + 1));
            outer.add(AggregateCall.create(outerFunction(c), false, false, false, List.of(), List.of(groups + 1 + i),
                    -1, null, RelCollations.EMPTY, c.getType(), c.getName()));
        }
        b.aggregate(b.groupKey(agg.getGroupSet().union(ImmutableBitSet.of(bucketField))), inner);
        b.aggregate(b.groupKey(ImmutableBitSet.range(groups)), outer);
        b.convert(agg.getRowType(), false);
        return b.build();
    }

    /** {@code MOD(x, buckets)} for an integer, {@code MOD(HASH_CODE(CAST(x AS VARCHAR)), buckets)} otherwise. */
    private static RexNode bucket(RexBuilder rex, RexNode x, int buckets) {
        RelDataType type = x.getType();
        RexNode hash = SqlTypeFamily.INTEGER.contains(type) ? x
                : rex.makeCall(HASH_CODE, SqlTypeFamily.CHARACTER.contains(type) ? x
                : rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
                        rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), type.isNullable()), x));
        return rex.makeCall(SqlStdOperatorTable.MOD, hash, rex.makeExactLiteral(BigDecimal.valueOf(buckets)));
    }
}
