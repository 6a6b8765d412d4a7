package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalUnion;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalUnion;

/** UNION ALL becomes a {@link StreamPhysicalUnion}; UNION (distinct) stays unsupported. */
public final class StreamPhysicalUnionRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalUnionRule", LogicalUnion.class,
            u -> u.all,
            StreamPhysicalUnionRule::new);

    /** Creates a StreamPhysicalUnionRule. */
    private StreamPhysicalUnionRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        return new StreamPhysicalUnion(rel.getCluster(), rel.getTraitSet(), rel.getInputs());
    }
}
