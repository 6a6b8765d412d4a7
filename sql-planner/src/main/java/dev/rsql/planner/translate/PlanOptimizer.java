package dev.rsql.planner.translate;

import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.rules.CoreRules;

import java.util.List;

/**
 * Rewrites a converted plan into the shape the physical rules map 1:1 to operators: the WHERE of a comma join in
 * its condition, nested unions flattened,
 * expressions in join conditions (e.g. the CAST of an INT key compared with a BIGINT one) computed below the join so
 * that its keys are columns, OVER expressions moved out of projections into windows, filters and projections merged
 * into calcs, no-op calcs removed.
 */
public final class PlanOptimizer {

    private static final HepProgram PROGRAM = HepProgram.builder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CommaJoinFilterRule.INSTANCE)
            .addRuleCollection(List.of(CoreRules.UNION_MERGE, CoreRules.JOIN_PUSH_EXPRESSIONS, CoreRules.PROJECT_REMOVE))
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
            .addRuleCollection(List.of(CoreRules.FILTER_TO_CALC, CoreRules.PROJECT_TO_CALC))
            .addRuleCollection(List.of(CoreRules.CALC_MERGE, CoreRules.CALC_REMOVE))
            .build();

    private PlanOptimizer() {
    }

    public static RelNode optimize(RelNode rel) {
        HepPlanner planner = new HepPlanner(PROGRAM);
        planner.setRoot(rel);
        return planner.findBestExp();
    }
}
