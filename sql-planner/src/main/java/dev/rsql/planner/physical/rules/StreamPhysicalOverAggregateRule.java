package dev.rsql.planner.physical.rules;

import dev.rsql.planner.physical.Lineage;
import dev.rsql.planner.physical.OverWindows;
import dev.rsql.planner.physical.StreamPhysicalExchange;
import dev.rsql.planner.physical.StreamPhysicalOverAggregate;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.List;

/**
 * A window of aggregate calls ({@code agg(...) OVER (...)}) becomes one {@link StreamPhysicalOverAggregate} per
 * window group, each behind an exchange by its partition fields. Groups are chained: each appends its aggregates to
 * the fields it reads, which is the window's own layout. Windows of ranking functions are not matched.
 */
public final class StreamPhysicalOverAggregateRule extends PhysicalConversionRule {

    static final PhysicalRuleConfig DEFAULT = PhysicalRuleConfig.of(
            "StreamPhysicalOverAggregateRule", LogicalWindow.class, OverWindows::supported,
            StreamPhysicalOverAggregateRule::new);

    /** Creates a StreamPhysicalOverAggregateRule. */
    private StreamPhysicalOverAggregateRule(PhysicalRuleConfig config) {
        super(config);
    }

    @Override
    RelNode convert(RelNode rel) {
        LogicalWindow window = (LogicalWindow) rel;
        RelTraitSet traits = rel.getTraitSet();
        RelDataTypeFactory types = rel.getCluster().getTypeFactory();
        List<RelDataTypeField> fields = window.getRowType().getFieldList();
        RelNode current = window.getInput();
        for (Window.Group g : window.groups) {
            List<AggregateCall> calls = g.getAggregateCalls(window);
            int width = current.getRowType().getFieldCount();
            RelDataTypeFactory.Builder rowType = types.builder().addAll(fields.subList(0, width + calls.size()));
            int orderField = g.orderKeys.getFieldCollations().get(0).getFieldIndex();
            RelNode exchange = new StreamPhysicalExchange(rel.getCluster(), traits, current, g.keys.asList());
            current = new StreamPhysicalOverAggregate(rel.getCluster(), traits, exchange, g.keys.asList(),
                    orderField, Lineage.time(window.getInput(), orderField), g.isRows,
                    OverWindows.preceding(window, g), calls, rowType.build());
        }
        return current;
    }
}
