package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalDeduplicate;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalCalc;

import java.util.Optional;

/**
 * A TopN keeping one unranked row per partition ordered by a time attribute ({@link RankPattern#deduplication()})
 * becomes a {@link StreamPhysicalDeduplicate} over an exchange by the partition fields. Runs before the rank rule.
 */
public final class StreamPhysicalDeduplicateRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalDeduplicateRule", LogicalCalc.class,
            c -> RankPattern.match(c).flatMap(RankPattern::deduplication).isPresent(),
            StreamPhysicalDeduplicateRule::new);

    /** Creates a StreamPhysicalDeduplicateRule. */
    private StreamPhysicalDeduplicateRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCalc calc = (LogicalCalc) rel;
        RankPattern p = RankPattern.match(calc).orElseThrow();
        RankPattern.Deduplication d = p.deduplication().orElseThrow();
        RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), rel.getTraitSet(), p.window().getInput(),
                p.partitionKeys().asList());
        RelNode dedup = new StreamPhysicalDeduplicate(rel.getCluster(), rel.getTraitSet(), exchange,
                p.partitionKeys(), d.timeField(), d.eventTime(), d.keepLast());
        return StreamPhysicalRankRule.above(calc, p, dedup);
    }
}
