package dev.rsql.planner.translate;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.FilterJoinRule;

/**
 * The WHERE of a comma join ({@code FROM a, b WHERE a.id = b.id AND ...}) moved into the join's condition, as Flink's
 * FILTER_INTO_JOIN does, so that the join rules see its equal keys, time bounds and residual as if written in an ON
 * clause. Only inner joins on TRUE qualify (the cross join of a comma); a join with a table function (a LATERAL
 * TABLE) stays a correlate on TRUE with the filter above it.
 */
final class CommaJoinFilterRule {

    static final RelOptRule INSTANCE = FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.DEFAULT
            .withOperandSupplier(b0 -> b0.operand(LogicalFilter.class).oneInput(b1 -> b1.operand(LogicalJoin.class)
                    .predicate(CommaJoinFilterRule::isCommaJoin).anyInputs()))
            .as(FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.class)
            .toRule();

    private CommaJoinFilterRule() {
    }

    private static boolean isCommaJoin(LogicalJoin join) {
        return join.getJoinType() == JoinRelType.INNER && join.getCondition().isAlwaysTrue()
                && !(unwrap(join.getRight()) instanceof TableFunctionScan);
    }

    private static RelNode unwrap(RelNode rel) {
        return rel instanceof HepRelVertex ? ((HepRelVertex) rel).getCurrentRel() : rel;
    }
}
