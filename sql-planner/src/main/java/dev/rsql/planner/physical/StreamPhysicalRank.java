package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * TopN: ROW_NUMBER, RANK or DENSE_RANK over a partition, filtered to a range of ranks, behind an exchange by the
 * partition fields. Output: the input's fields, then the rank when a consumer reads it. Over an insert-only input it
 * keeps only the rows in the range (Flink's AppendFast strategy); over a changelog, which it reads as -U/+U, every row
 * (Retract strategy). It emits updates of a position when it outputs ROW_NUMBER's rank (upsert key: partition fields
 * and rank) or keeps one row per partition (upsert key: partition fields); otherwise inserts of rows entering the
 * range and deletes of rows leaving it.
 */
public final class StreamPhysicalRank extends RankRel {

    public StreamPhysicalRank(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet partitionKeys,
                              RelCollation order, SqlKind function, long rankStart, long rankEnd,
                              boolean outputRankNumber, String rankName) {
        super(cluster, traits, input, partitionKeys, order, function, rankStart, rankEnd, outputRankNumber, rankName);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalRank(getCluster(), traitSet, sole(inputs), partitionKeys, order, function, rankStart,
                rankEnd, outputRankNumber, rankName());
    }

    /** At most one row per partition. */
    private boolean singleRow() {
        return function == SqlKind.ROW_NUMBER && rankStart == rankEnd;
    }

    /** Each position holds one row, so a change of its row is an update. */
    private boolean updatesPositions() {
        return singleRow() || function == SqlKind.ROW_NUMBER && outputRankNumber;
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        boolean positions = updatesPositions();
        return new ModifyKindSet(true, positions, inputs.get(0).isChangelog() || !positions);
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return required == UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        List<ImmutableBitSet> keys = new ArrayList<>();
        if (singleRow()) {
            keys.add(partitionKeys);
        }
        if (updatesPositions() && outputRankNumber) {
            keys.add(partitionKeys.union(ImmutableBitSet.of(rankField())));
        }
        for (ImmutableBitSet k : inputs.get(0)) {
            if (k.contains(partitionKeys) && !keys.contains(k)) {
                keys.add(k);
            }
        }
        return keys;
    }

    @Override
    public String describe() {
        List<String> names = getInput().getRowType().getFieldNames();
        return "Rank(rankType=" + function + ", rankRange=[rankStart=" + rankStart + ", rankEnd=" + rankEnd + "], partitionBy="
                + PhysicalPlanPrinter.fieldNames(getInput().getRowType(), partitionKeys.asList()) + ", orderBy=["
                + order.getFieldCollations().stream().map(f -> names.get(f.getFieldIndex()) + " "
                        + (f.getDirection().isDescending() ? "DESC" : "ASC")).collect(Collectors.joining(", "))
                + "], select=[" + String.join(", ", getRowType().getFieldNames()) + "])";
    }
}
