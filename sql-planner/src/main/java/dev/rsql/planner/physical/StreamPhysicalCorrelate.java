package dev.rsql.planner.physical;

import dev.rsql.runtime.graph.EmitSpec;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * {@code LATERAL TABLE(f(...))}: calls a table function for each input row. The function call (Calcite's right side
 * of the correlate or join) is kept as a field, not an input: it is evaluated per row, it is not a stream.
 */
public final class StreamPhysicalCorrelate extends SingleRel implements StreamPhysicalRel {

    private final RelNode function;
    private final JoinRelType joinType;
    private final CorrelationId correlationId;

    /** @param correlationId the variable the call reads the left row through; null when it does not read it */
    public StreamPhysicalCorrelate(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelNode function,
                                   JoinRelType joinType, CorrelationId correlationId, RelDataType rowType) {
        super(cluster, traits, input);
        this.function = function;
        this.joinType = joinType;
        this.correlationId = correlationId;
        this.rowType = rowType;
    }

    public RelNode function() {
        return function;
    }

    public JoinRelType joinType() {
        return joinType;
    }

    public CorrelationId correlationId() {
        return correlationId;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StreamPhysicalCorrelate(getCluster(), traitSet, sole(inputs), function, joinType, correlationId,
                rowType);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("function", function.toString()).item("joinType", joinType);
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
        return "Correlate(joinType=[" + joinType.lowerName + "])";
    }
}
