package dev.rsql.planner.physical.rules;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;

/** A rule replacing the logical node it matches by the physical node {@link #convert} builds. */
abstract class PhysicalConversionRule extends RelRule<PhysicalRuleConfig> {

    PhysicalConversionRule(PhysicalRuleConfig config) {
        super(config);
    }

    /** The physical node for a matched logical node; its inputs are the logical node's (converted bottom-up). */
    abstract RelNode convert(RelNode rel);

    @Override
    public void onMatch(RelOptRuleCall call) {
        call.transformTo(convert(call.rel(0)));
    }
}
