package dev.rsql.planner.physical;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.util.ImmutableIntList;

import java.util.List;

/** A physical node with one input that works by key fields of its rows (an exchange, a materializer). */
abstract class KeyedSingleRel extends SingleRel implements StreamPhysicalRel {

    protected final ImmutableIntList keys;

    KeyedSingleRel(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<Integer> keys) {
        super(cluster, traits, input);
        this.keys = ImmutableIntList.copyOf(keys);
    }

    public int[] keys() {
        return keys.toIntArray();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("keys", keys);
    }
}
