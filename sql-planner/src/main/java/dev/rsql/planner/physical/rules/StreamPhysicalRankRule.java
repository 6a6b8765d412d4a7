package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.StreamPhysicalCalc;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalRank;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalCalc;
import org.apache.calcite.rex.RexProgram;

/**
 * A TopN ({@link RankPattern}) becomes a {@link StreamPhysicalRank} over an exchange by the partition fields, under a
 * calc for what the query does with its rows besides bounding the rank. Runs before the calc rule, which would
 * otherwise take the calc and leave the window unconverted.
 */
public final class StreamPhysicalRankRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalRankRule", LogicalCalc.class,
            c -> RankPattern.match(c).isPresent(),
            StreamPhysicalRankRule::new);

    /** Creates a StreamPhysicalRankRule. */
    private StreamPhysicalRankRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalCalc calc = (LogicalCalc) rel;
        RankPattern p = RankPattern.match(calc).orElseThrow();
        RelNode input = p.window().getInput();
        RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), rel.getTraitSet(), input,
                p.partitionKeys().asList());
        StreamPhysicalRank rank = new StreamPhysicalRank(rel.getCluster(), rel.getTraitSet(), exchange,
                p.partitionKeys(), p.order(), p.function(), p.rankStart(), p.rankEnd(), p.rankReferenced(),
                p.window().getRowType().getFieldNames().get(p.rankField()));
        return above(calc, p, rank);
    }

    /** The calc over a rank node doing what the matched calc did besides bounding the rank, if anything. */
    static RelNode above(LogicalCalc calc, RankPattern p, RelNode rank) {
        if (!p.needsCalc()) {
            return rank;
        }
        RexProgram program = RexProgram.create(rank.getRowType(), p.projects(), p.remaining(), calc.getRowType(),
                calc.getCluster().getRexBuilder());
        return new StreamPhysicalCalc(calc.getCluster(), calc.getTraitSet(), rank, program);
    }
}
