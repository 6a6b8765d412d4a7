package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Repartitions rows by key fields (none: one partition), in front of every keyed operator. Only keys containing the
 * partition key stay upsert keys: two changes of a row addressed by another key could travel to different tasks and
 * overtake each other.
 */
public final class StreamPhysicalExchange extends KeyedSingleRel {

    public StreamPhysicalExchange(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<Integer> keys) {
        super(cluster, traits, input, keys);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalExchange(getCluster(), traitSet, sole(inputs), keys);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return inputs.get(0);
    }

    @Override
    public List<ImmutableBitSet> upsertKeys(List<List<ImmutableBitSet>> inputs) {
        ImmutableBitSet partition = ImmutableBitSet.of(keys);
        List<ImmutableBitSet> kept = new ArrayList<>();
        for (ImmutableBitSet k : inputs.get(0)) {
            if (k.contains(partition)) {
                kept.add(k);
            }
        }
        return kept;
    }

    @Override
    public String describe() {
        return keys.isEmpty() ? "Exchange(distribution=[single])"
                : "Exchange(distribution=[hash" + PhysicalPlanPrinter.fieldNames(getRowType(), keys) + "])";
    }
}
