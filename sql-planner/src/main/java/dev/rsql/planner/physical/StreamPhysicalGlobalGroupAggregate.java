package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * The global phase of a two-phase GROUP BY, over the exchange (by the group fields, the input's first fields) of a
 * {@link StreamPhysicalLocalGroupAggregate}: merges the partial accumulators into state and emits the group's result as
 * a {@link StreamPhysicalGroupAggregate} does. The aggregate calls are the local phase's (they read its input).
 */
public final class StreamPhysicalGlobalGroupAggregate extends SingleRel implements StreamPhysicalRel {

    private final int groupCount;
    private final List<AggregateCall> aggCalls;

    public StreamPhysicalGlobalGroupAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                              int groupCount, List<AggregateCall> aggCalls, RelDataType rowType) {
        super(cluster, traits, input);
        this.groupCount = groupCount;
        this.aggCalls = List.copyOf(aggCalls);
        this.rowType = rowType;
    }

    public int groupCount() {
        return groupCount;
    }

    public List<AggregateCall> aggCalls() {
        return aggCalls;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalGlobalGroupAggregate(getCluster(), traitSet, sole(inputs), groupCount, aggCalls,
                rowType);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return new ModifyKindSet(true, true, false);
    }

    @Override
    public ModifyKindSet acceptedInputKinds() {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    public UpdateKind inputUpdateKind(UpdateKind required) {
        return UpdateKind.NONE;
    }

    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return required == UpdateKind.BEFORE_AND_AFTER;
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        return List.of(ImmutableBitSet.range(groupCount));
    }

    @Override
    public String describe() {
        return PhysicalPlanPrinter.groupAggregate("GlobalGroupAggregate", getRowType(),
                ImmutableBitSet.range(groupCount).asList(), aggCalls);
    }
}
