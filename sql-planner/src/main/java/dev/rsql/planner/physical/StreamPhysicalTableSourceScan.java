package dev.rsql.planner.physical;

import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;

import java.util.List;

/**
 * Reads a connector table: a stream of inserts, or a changelog when the table's connector says so (a format of
 * changes such as {@code debezium-json}); {@link ChangelogInference} asks it.
 */
public final class StreamPhysicalTableSourceScan extends TableScan implements StreamPhysicalRel {

    public StreamPhysicalTableSourceScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
        super(cluster, traits, List.of(), table);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalTableSourceScan(getCluster(), traitSet, getTable());
    }

    /** The table read, or null for a table that is not a connector's. */
    public ConnectorTable connectorTable() {
        return getTable().unwrap(ConnectorTable.class);
    }

    @Override
    public <R> R accept(StreamPhysicalVisitor<R> visitor) {
        return visitor.visit(this);
    }

    /** A changelog source gives each update as -U and +U, whatever its consumers need. */
    @Override
    public boolean emitsUpdateBefore(UpdateKind required, boolean inputsEmitUpdateBefore) {
        return true;
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
