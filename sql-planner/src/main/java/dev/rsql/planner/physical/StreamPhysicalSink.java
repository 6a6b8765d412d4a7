package dev.rsql.planner.physical;

import dev.rsql.planner.calcite.ConnectorTable;
import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * Writes the query into a table (the INSERT). What it accepts depends on the table: with a primary key, upserts by
 * that key; without one, a changelog if the connector writes row kinds, else inserts only. {@link ChangelogInference}
 * decides, since it depends on the connectors installed.
 */
public final class StreamPhysicalSink extends SingleRel implements StreamPhysicalRel {

    private final RelOptTable target;

    public StreamPhysicalSink(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelOptTable target,
                              RelDataType rowType) {
        super(cluster, traits, input);
        this.target = target;
        this.rowType = rowType;
    }

    public RelOptTable target() {
        return target;
    }

    /** The connector table written to, or null when the target is not one. */
    public ConnectorTable connectorTable() {
        return target.unwrap(ConnectorTable.class);
    }

    /** Names the sink in errors: {@code Table sink 'out'}. */
    public String sinkName() {
        return "Table sink '" + String.join(".", target.getQualifiedName()) + "'";
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalSink(getCluster(), traitSet, sole(inputs), target, rowType);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("table", target.getQualifiedName());
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
    public String describe() {
        ConnectorTable t = connectorTable();
        String pk = t == null || t.descriptor().schema().primaryKey().isEmpty() ? ""
                : ", primaryKey=" + t.descriptor().schema().primaryKey();
        return "Sink(table=[" + String.join(".", target.getQualifiedName()) + "]" + pk + ")";
    }
}
