package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalSink;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableModify;

/** An INSERT becomes a {@link StreamPhysicalSink}. */
public final class StreamPhysicalSinkRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalSinkRule", LogicalTableModify.class,
            m -> m.isInsert(),
            StreamPhysicalSinkRule::new);

    /** Creates a StreamPhysicalSinkRule. */
    private StreamPhysicalSinkRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalTableModify m = (LogicalTableModify) rel;
        return new StreamPhysicalSink(rel.getCluster(), rel.getTraitSet(), m.getInput(), m.getTable(),
                m.getRowType());
    }
}
