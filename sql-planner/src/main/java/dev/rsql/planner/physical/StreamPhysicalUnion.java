package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;

import java.util.List;

/** UNION ALL: merges streams of one row type; emits whatever its inputs emit. Keys do not survive a union. */
public final class StreamPhysicalUnion extends Union implements StreamPhysicalRel {

    public StreamPhysicalUnion(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs) {
        super(cluster, traits, List.of(), inputs, true);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new StreamPhysicalUnion(getCluster(), traitSet, inputs);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return ModifyKindSet.union(inputs);
    }

    @Override
    public String describe() {
        return "Union(all=[true])";
    }
}
