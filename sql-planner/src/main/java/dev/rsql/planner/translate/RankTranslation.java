package dev.rsql.planner.translate;

import dev.rsql.planner.calcite.TypeConverter;
import dev.rsql.planner.physical.PhysicalPlan;
import dev.rsql.planner.physical.StreamPhysicalDeduplicate;
import dev.rsql.planner.physical.StreamPhysicalRank;
import dev.rsql.planner.physical.StreamPhysicalWindowRank;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.RankNode;
import org.apache.calcite.rel.RelFieldCollation;

import java.util.List;

/** The graph nodes of TopN and deduplication physical nodes. */
final class RankTranslation {

    private RankTranslation() {
    }

    static GraphBuilder.Stream rank(StreamPhysicalRank rank, GraphBuilder.Stream input, PhysicalPlan plan,
                                    StreamSettings settings) {
        RankNode.Function function = RankNode.Function.valueOf(rank.function().name());
        boolean appendOnly = !plan.mode(rank.getInput()).kinds().isChangelog();
        return input.rank(TypeConverter.toRowType(rank.getRowType()), rank.partitionKeys().toArray(),
                order(rank.orderFields()), function, rank.rankStart(), rank.rankEnd(), rank.outputRankNumber(),
                appendOnly, plan.mode(rank).hasUpdateBefore(), settings.stateTtlMillis());
    }

    static GraphBuilder.Stream deduplicate(StreamPhysicalDeduplicate d, GraphBuilder.Stream input, PhysicalPlan plan,
                                           StreamSettings settings) {
        return input.deduplicate(d.partitionKeys().toArray(), d.timeField(), d.eventTime(), d.keepLast(),
                plan.mode(d).hasUpdateBefore(), settings.stateTtlMillis());
    }

    static GraphBuilder.Stream windowRank(StreamPhysicalWindowRank rank, GraphBuilder.Stream input) {
        return input.windowRank(TypeConverter.toRowType(rank.getRowType()), rank.partitionKeys().toArray(),
                order(rank.orderFields()), RankNode.Function.valueOf(rank.function().name()), rank.rankStart(),
                rank.rankEnd(), rank.outputRankNumber(), rank.windowEndField());
    }

    /** Calcite's collation as the runtime's sort order (NULLs first with ASC, last with DESC unless said). */
    static RankNode.Order order(List<RelFieldCollation> fields) {
        int[] f = new int[fields.size()];
        boolean[] descending = new boolean[f.length];
        boolean[] nullsFirst = new boolean[f.length];
        for (int i = 0; i < f.length; i++) {
            RelFieldCollation c = fields.get(i);
            f[i] = c.getFieldIndex();
            descending[i] = c.getDirection().isDescending();
            RelFieldCollation.NullDirection n = c.nullDirection;
            nullsFirst[i] = n == RelFieldCollation.NullDirection.UNSPECIFIED ? !descending[i]
                    : n == RelFieldCollation.NullDirection.FIRST;
        }
        return new RankNode.Order(f, descending, nullsFirst);
    }
}
