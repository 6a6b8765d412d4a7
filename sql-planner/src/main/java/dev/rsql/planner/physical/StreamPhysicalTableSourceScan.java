package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;

import java.util.List;

/** Reads a connector table: an insert-only stream (sources do not read changelogs yet). */
public final class StreamPhysicalTableSourceScan extends TableScan implements StreamPhysicalRel {

    public StreamPhysicalTableSourceScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
        super(cluster, traits, List.of(), table);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalTableSourceScan(getCluster(), traitSet, getTable());
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    @Override
    public ModifyKindSet modifyKinds(List<ModifyKindSet> inputs, EmitSpec emit) {
        return ModifyKindSet.INSERT_ONLY;
    }

    @Override
    public String describe() {
        return "TableSourceScan(table=[" + String.join(".", getTable().getQualifiedName()) + "])";
    }
}
