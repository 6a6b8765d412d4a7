package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * GROUP BY without a window, over an exchange by the group fields: one row per group, updated as rows arrive. It
 * emits inserts and updates, and deletes when its input takes rows back. It reads updates as -U/+U (it must subtract
 * the old row), and emits -U only when a consumer needs them. The group fields are its upsert key.
 */
public final class StreamPhysicalGroupAggregate extends Aggregate implements StreamPhysicalRel {

    public StreamPhysicalGroupAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                        ImmutableBitSet groupSet, List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                          List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new StreamPhysicalGroupAggregate(getCluster(), traitSet, input, groupSet, aggCalls);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return new ModifyKindSet(true, true, inputs.get(0).isChangelog());
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
        return List.of(ImmutableBitSet.range(getGroupCount()));
    }

    @Override
    public String describe() {
        return PhysicalPlanPrinter.groupAggregate("GroupAggregate", getInput().getRowType(), getGroupSet().asList(),
                getAggCallList());
    }
}
