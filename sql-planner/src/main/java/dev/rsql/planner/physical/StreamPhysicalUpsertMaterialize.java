package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Flink's SinkUpsertMaterializer, in front of a sink whose primary key is not an upsert key of the query: keeps per
 * sink key the rows currently in the result and emits upserts by that key. Needs -U/+U to know which row goes.
 * Inserted by {@link ChangelogInference}, behind an exchange by the sink key.
 */
public final class StreamPhysicalUpsertMaterialize extends KeyedSingleRel {

    public StreamPhysicalUpsertMaterialize(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                           List<Integer> keys) {
        super(cluster, traits, input, keys);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalUpsertMaterialize(getCluster(), traitSet, sole(inputs), keys);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return ModifyKindSet.ALL;
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return false;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return List.of(ImmutableBitSet.of(keys));
    }

    @Override
    public String describe() {
        return "UpsertMaterialize(key=" + PhysicalPlanPrinter.fieldNames(getRowType(), keys) + ")";
    }
}
