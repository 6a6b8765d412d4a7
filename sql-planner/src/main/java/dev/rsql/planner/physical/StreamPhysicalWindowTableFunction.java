package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.metadata.RelColumnMapping;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A window table function (TUMBLE, HOP, CUMULATE, SESSION): appends window_start, window_end and window_time to
 * each row, once per window the row falls into.
 */
public final class StreamPhysicalWindowTableFunction extends TableFunctionScan implements StreamPhysicalRel {

    public StreamPhysicalWindowTableFunction(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode call,
                                             RelDataType rowType) {
        super(cluster, traits, List.of(), List.of(input), call, null, rowType, Set.<RelColumnMapping>of());
    }

    @Override
    public TableFunctionScan copy(RelTraitSet traitSet, List<RelNode> inputs, RexNode rexCall, Type elementType,
                                  RelDataType rowType, Set<RelColumnMapping> columnMappings) {
        return new StreamPhysicalWindowTableFunction(getCluster(), traitSet, inputs.get(0), rexCall, rowType);
    }

    public RelNode getInput() {
        return getInputs().get(0);
    }

    /** TUMBLE, HOP, CUMULATE or SESSION. */
    public String functionName() {
        return ((RexCall) getCall()).getOperator().getName().toUpperCase(Locale.ROOT);
    }

    /** The time column the DESCRIPTOR names, as an index into the input. */
    public int timeField() {
        return Lineage.timeField(this);
    }

    /** Whether that column is an event-time attribute, a processing-time one, or neither. */
    public Lineage.Time time() {
        return Lineage.time(getInput(), timeField());
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
        return "WindowTableFunction(" + getCall() + ")";
    }
}
