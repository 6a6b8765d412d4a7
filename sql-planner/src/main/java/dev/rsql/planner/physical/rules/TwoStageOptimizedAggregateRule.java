package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.PhysicalPlan;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalGlobalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalLocalGroupAggregate;
import dev.rsql.planner.physical.StreamPhysicalSink;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits a {@link StreamPhysicalGroupAggregate} over an exchange into a {@link StreamPhysicalLocalGroupAggregate}
 * before the exchange and a {@link StreamPhysicalGlobalGroupAggregate} after it, as Flink's rule of this name: the
 * local phase folds each mini-batch per group, so the exchange carries one row per group and batch instead of one
 * per input row. Applies when the aggregate's input is insert-only (a partial accumulator carries no retractions)
 * and every aggregate merges accumulators in an order-free way. A plan rewrite after changelog inference (it needs
 * the input's changelog), applied when mini-batch is on and the phase strategy allows it.
 */
public final class TwoStageOptimizedAggregateRule {

    /** Aggregates whose accumulators merge regardless of the order of batches. */
    private static final Set<String> MERGING = Set.of("COUNT", "SUM", "$SUM0", "SUM0", "AVG", "MIN", "MAX",
            "VAR_POP", "VAR_SAMP", "STDDEV_POP", "STDDEV_SAMP", "APPROX_COUNT_DISTINCT");

    private final PhysicalPlan plan;

    private TwoStageOptimizedAggregateRule(PhysicalPlan plan) {
        this.plan = plan;
    }

    /** The plan's sink with every aggregate that can run in two phases split; the same sink if none can. */
    public static StreamPhysicalSink apply(StreamPhysicalSink sink, PhysicalPlan plan) {
        return (StreamPhysicalSink) new TwoStageOptimizedAggregateRule(plan).rewrite(sink);
    }

    private RelNode rewrite(RelNode node) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode in : node.getInputs()) {
            RelNode r = rewrite(in);
            inputs.add(r);
            changed |= r != in;
        }
        if (node instanceof StreamPhysicalGroupAggregate && matches((StreamPhysicalGroupAggregate) node)) {
            StreamPhysicalGroupAggregate agg = (StreamPhysicalGroupAggregate) node;
            RelNode input = inputs.get(0).getInput(0);
            int groups = agg.getGroupCount();
            StreamPhysicalLocalGroupAggregate local = new StreamPhysicalLocalGroupAggregate(agg.getCluster(),
                    agg.getTraitSet(), input, agg.getGroupSet(), agg.getAggCallList());
            StreamPhysicalExchange exchange = new StreamPhysicalExchange(agg.getCluster(), agg.getTraitSet(), local,
                    ImmutableBitSet.range(groups).asList());
            return new StreamPhysicalGlobalGroupAggregate(agg.getCluster(), agg.getTraitSet(), exchange, groups,
                    agg.getAggCallList(), agg.getRowType());
        }
        return changed ? node.copy(node.getTraitSet(), inputs) : node;
    }

    private boolean matches(StreamPhysicalGroupAggregate agg) {
        RelNode exchange = agg.getInput();
        if (!(exchange instanceof StreamPhysicalExchange)
                || plan.mode(exchange.getInput(0)).kinds().isChangelog()) {
            return false;
        }
        for (AggregateCall call : agg.getAggCallList()) {
            if (!mergesInAnyOrder(call)) {
                return false;
            }
        }
        return true;
    }

    /** A distinct aggregate merges its value counts, which needs one argument. */
    private static boolean mergesInAnyOrder(AggregateCall call) {
        String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
        return MERGING.contains(name) && (!call.isDistinct() || call.getArgList().size() == 1);
    }
}
