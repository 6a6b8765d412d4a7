package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalCorrelate;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalCorrelate;

/**
 * {@code LATERAL TABLE(f(...))} reading the left row becomes a {@link StreamPhysicalCorrelate}; whether the right
 * side is a table function call the translator can run is checked there, with the statement's position.
 */
public final class StreamPhysicalCorrelateRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalCorrelateRule", LogicalCorrelate.class,
            c -> StreamPhysicalTemporalJoinRule.snapshot(unwrap(c.getRight())) == null,
            StreamPhysicalCorrelateRule::new);

    /** Creates a StreamPhysicalCorrelateRule. */
    private StreamPhysicalCorrelateRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCorrelate c = (LogicalCorrelate) rel;
        return new StreamPhysicalCorrelate(rel.getCluster(), rel.getTraitSet(), c.getLeft(),
                unwrap(c.getRight()), c.getJoinType(), c.getCorrelationId(), c.getRowType());
    }

    /** The node behind a planner vertex: the function call is kept as a field, outside the planner's graph. */
    static RelNode unwrap(RelNode rel) {
        return rel instanceof HepRelVertex ? ((HepRelVertex) rel).getCurrentRel() : rel;
    }
}
