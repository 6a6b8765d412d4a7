package dev.rsql.planner.physical;

import dev.rsql.planner.PlanningException;
import dev.rsql.planner.physical.rules.StreamPhysicalRules;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns the optimised logical plan of one INSERT into a physical streaming plan: every node is converted by the rule
 * for its feature ({@link StreamPhysicalRules}); a node no rule converts is a feature not supported yet.
 */
public final class PhysicalPlanner {

    private static final HepProgram PROGRAM = HepProgram.builder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(StreamPhysicalRules.ALL)
            .build();

    private PhysicalPlanner() {
    }

    /** The physical plan of an INSERT; {@code position} is the statement's, for errors. */
    public static StreamPhysicalSink toPhysical(RelNode logical, SqlParserPos position) {
        return toPhysical(logical, position, NodePositions.NONE);
    }

    /** As above; a node no rule converts is reported at the position {@code nodes} gives it (inside a view). */
    public static StreamPhysicalSink toPhysical(RelNode logical, SqlParserPos position, NodePositions nodes) {
        if (!(logical instanceof TableModify)) {
            throw new PlanningException(position, "expected an INSERT, got " + logical.getRelTypeName());
        }
        HepPlanner planner = new HepPlanner(PROGRAM);
        planner.setRoot(logical);
        RelNode physical = planner.findBestExp();
        checkConverted(physical, position, nodes);
        return (StreamPhysicalSink) physical;
    }

    /** Fails at the first node, from the sink down, that no rule converted. */
    private static void checkConverted(RelNode rel, SqlParserPos position, NodePositions nodes) {
        if (!(rel instanceof StreamPhysicalRel)) {
            throw new PlanningException(nodes.of(rel, position), unsupported(rel) + " is not supported yet");
        }
        for (RelNode input : rel.getInputs()) {
            checkConverted(input, position, nodes);
        }
    }

    private static String unsupported(RelNode rel) {
        if (rel instanceof Calc && RexOver.containsOver(((Calc) rel).getProgram()) || rel instanceof Window) {
            return "OVER windows";
        }
        if (rel instanceof Union) {
            return "UNION without ALL (use UNION ALL, or SELECT DISTINCT over it)";
        }
        if (rel instanceof Aggregate) {
            return "GROUPING SETS, CUBE and ROLLUP";
        }
        if (rel instanceof Join) {
            return "a join that is not INNER, LEFT, RIGHT or FULL with an equality between the two sides";
        }
        if (rel instanceof Sort) {
            return "ORDER BY / LIMIT on a stream";
        }
        if (rel instanceof Values) {
            return "a query without FROM (VALUES)";
        }
        return rel.getRelTypeName();
    }
}
