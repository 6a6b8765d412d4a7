package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalGroupAggregate;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.logical.LogicalAggregate;

/**
 * GROUP BY without window columns becomes a {@link StreamPhysicalGroupAggregate} over an exchange by the group
 * fields. GROUPING SETS, CUBE and ROLLUP stay unsupported.
 */
public final class StreamPhysicalGroupAggregateRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalGroupAggregateRule", LogicalAggregate.class,
            a -> a.getGroupType() == Aggregate.Group.SIMPLE && !WindowColumns.groupsByWindow(a),
            StreamPhysicalGroupAggregateRule::new);

    /** Creates a StreamPhysicalGroupAggregateRule. */
    private StreamPhysicalGroupAggregateRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalAggregate agg = (LogicalAggregate) rel;
        RelTraitSet traits = rel.getTraitSet();
        RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), traits, agg.getInput(),
                agg.getGroupSet().asList());
        return new StreamPhysicalGroupAggregate(rel.getCluster(), traits, exchange, agg.getGroupSet(),
                agg.getAggCallList());
    }
}
