package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * The local phase of a two-phase GROUP BY, before the exchange: folds each mini-batch of an insert-only input into
 * partial accumulators per group, without state. Its rows are partial (the row type shown is the aggregate's, the
 * rows carry accumulators); they have no upsert key, and only a {@link StreamPhysicalGlobalGroupAggregate} reads them.
 */
public final class StreamPhysicalLocalGroupAggregate extends Aggregate implements InsertOnlyRel {

    public StreamPhysicalLocalGroupAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
                                             ImmutableBitSet groupSet, List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                          List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new StreamPhysicalLocalGroupAggregate(getCluster(), traitSet, input, groupSet, aggCalls);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public String describe() {
        return PhysicalPlanPrinter.groupAggregate("LocalGroupAggregate", getInput().getRowType(),
                getGroupSet().asList(), getAggCallList());
    }
}
