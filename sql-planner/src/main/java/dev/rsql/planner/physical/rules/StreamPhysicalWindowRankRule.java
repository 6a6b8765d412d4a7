package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalWindowRank;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalCalc;

/**
 * A TopN partitioned by window_start and window_end of an event-time window ({@link RankPattern#windowEnd()}) becomes
 * a {@link StreamPhysicalWindowRank} over an exchange by the partition fields: window TopN, and window deduplication
 * (ROW_NUMBER = 1 ordered by the time attribute). Runs before the deduplicate and rank rules.
 */
public final class StreamPhysicalWindowRankRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalWindowRankRule", LogicalCalc.class,
            c -> RankPattern.match(c).map(p -> p.windowEnd() >= 0).orElse(false),
            StreamPhysicalWindowRankRule::new);

    /** Creates a StreamPhysicalWindowRankRule. */
    private StreamPhysicalWindowRankRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCalc calc = (LogicalCalc) rel;
        RankPattern p = RankPattern.match(calc).orElseThrow();
        RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), rel.getTraitSet(), p.window().getInput(),
                p.partitionKeys().asList());
        RelNode rank = new StreamPhysicalWindowRank(rel.getCluster(), rel.getTraitSet(), exchange, p.partitionKeys(),
                p.order(), p.function(), p.rankStart(), p.rankEnd(), p.rankReferenced(),
                p.window().getRowType().getFieldNames().get(p.rankField()), p.windowEnd());
        return StreamPhysicalRankRule.above(calc, p, rank);
    }
}
