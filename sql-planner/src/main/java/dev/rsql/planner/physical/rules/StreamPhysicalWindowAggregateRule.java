package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalWindowAggregate;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rex.RexCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * GROUP BY window columns (window_start, window_end, window_time of a window table function, or window_start and
 * window_end of a window aggregation below: a cascaded one) becomes a {@link StreamPhysicalWindowAggregate} over an
 * exchange by the other group fields.
 */
public final class StreamPhysicalWindowAggregateRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalWindowAggregateRule", LogicalAggregate.class,
            a -> a.getGroupType() == Aggregate.Group.SIMPLE && WindowColumns.groupsByWindow(a),
            StreamPhysicalWindowAggregateRule::new);

    /** Creates a StreamPhysicalWindowAggregateRule. */
    private StreamPhysicalWindowAggregateRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalAggregate agg = (LogicalAggregate) rel;
        int start = -1;
        int end = -1;
        int time = -1;
        List<Integer> keys = new ArrayList<>();
        for (int g : agg.getGroupSet()) {
            switch (WindowColumns.column(agg, g)) {
                case START -> start = g;
                case END -> end = g;
                case TIME -> time = g;
                default -> keys.add(g);
            }
        }
        TableFunctionScan tvf = WindowColumns.scan(agg, start >= 0 ? start : end >= 0 ? end : time);
        boolean eventTime = Lineage.time(tvf.getInputs().get(0), Lineage.timeField(tvf)) == Lineage.Time.EVENT;
        // A cascaded level groups by the windows the level below emitted, which no longer merge.
        boolean merging = !WindowColumns.isCascaded(agg)
                && ((RexCall) tvf.getCall()).getOperator().getName().equalsIgnoreCase("SESSION");
        String function = ((RexCall) tvf.getCall()).getOperator().getName().toUpperCase(Locale.ROOT);
        boolean sliced = !WindowColumns.isCascaded(agg) && (function.equals("HOP") || function.equals("CUMULATE"))
                && WindowColumns.onlyGroupedBy(agg, tvf);
        RelTraitSet traits = rel.getTraitSet();
        RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), traits, agg.getInput(), keys);
        return new StreamPhysicalWindowAggregate(rel.getCluster(), traits, exchange, agg.getGroupSet(),
                agg.getAggCallList(), keys, new StreamPhysicalWindowAggregate.Window(start, end, time, eventTime,
                merging, sliced));
    }
}
