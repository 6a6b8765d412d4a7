package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Window TopN and window deduplication: a TopN partitioned by window_start, window_end (and other fields) of an
 * event-time window table function, behind an exchange by the partition fields. Reads and emits insert-only rows:
 * each window's top rows once the watermark passes its end. Output: the input's fields, then the rank when a
 * consumer reads it.
 */
public final class StreamPhysicalWindowRank extends RankRel {

    private final int windowEndField;

    public StreamPhysicalWindowRank(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                    ImmutableBitSet partitionKeys, RelCollation order, SqlKind function,
                                    long rankStart, long rankEnd, boolean outputRankNumber, String rankName,
                                    int windowEndField) {
        super(cluster, traits, input, partitionKeys, order, function, rankStart, rankEnd, outputRankNumber, rankName);
        this.windowEndField = windowEndField;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalWindowRank(getCluster(), traitSet, sole(inputs), partitionKeys, order, function,
                rankStart, rankEnd, outputRankNumber, rankName(), windowEndField);
    }

    public int windowEndField() {
        return windowEndField;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet acceptedInputKinds() {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        if (function != SqlKind.ROW_NUMBER) {
            return List.of();
        }
        if (rankStart == rankEnd) {
            return List.of(partitionKeys);
        }
        return outputRankNumber ? List.of(partitionKeys.union(ImmutableBitSet.of(rankField())))
                : List.of();
    }

    @Override
    public String describe() {
        return "WindowRank(rankType=" + function + ", rankRange=[rankStart=" + rankStart + ", rankEnd=" + rankEnd
                + "], partitionBy=" + PhysicalPlanPrinter.fieldNames(getInput().getRowType(), partitionKeys.asList())
                + ", orderBy=" + order + ")";
    }
}
