package dev.rsql.planner.codegen;

import dev.rsql.planner.functions.EventFunctions;
import dev.rsql.planner.functions.EventPatternSet;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;

import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replaces, in every calc program of a job, {@code EVENT_MATCHES(column, 'pattern')} on an input column by a test
 * against the job's {@link EventPatternSet} for that column, so that the rules of a script routing one bus run one
 * pattern index per event instead of each its own pattern.
 */
final class EventPatternSetRewriter {

    private final String unitName;
    private final Map<String, EventPatternSet.Builder> sets = new LinkedHashMap<>();
    /** The pattern each operator this rewriter made stands for. */
    private final Map<SqlOperator, Test> tests = new IdentityHashMap<>();

    /** A test of pattern {@code index} of the set named {@code setName}. */
    record Test(String setName, int index) {
    }

    EventPatternSetRewriter(String unitName) {
        this.unitName = unitName;
    }

    RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
        List<RexNode> exprs = program.getExprList();
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                if (!PatternSetRewriter.isBuiltin(c.getOperator(), "EVENT_MATCHES", EventFunctions.class)
                        || c.getOperands().size() != 2) {
                    return c;
                }
                int field = PatternSetRewriter.inputField(c.getOperands().get(0), exprs);
                String pattern = PatternSetRewriter.charLiteral(c.getOperands().get(1), exprs);
                if (field < 0 || pattern == null) {
                    return c;
                }
                String column = program.getInputRowType().getFieldList().get(field).getName();
                int index = sets.computeIfAbsent(column, k -> new EventPatternSet.Builder()).add(pattern);
                SqlOperator test = operator(setName(column), index);
                tests.put(test, new Test(setName(column), index));
                return rexBuilder.makeCall(c.getType(), test, List.of(c.getOperands().get(0)));
            }
        };
        return RexProgramBuilder.create(rexBuilder, program.getInputRowType(), exprs, program.getProjectList(),
                program.getCondition(), program.getOutputRowType(), shuttle, true).getProgram(false);
    }

    /** The event pattern test {@code op} stands for, or null when it is not one of this rewriter's. */
    Test test(SqlOperator op) {
        return tests.get(op);
    }

    /** Builds and registers every set; called before the generated classes are loaded. */
    void register() {
        sets.forEach((column, set) -> set.register(setName(column)));
    }

    private String setName(String column) {
        return unitName + "#events#" + column;
    }

    private static SqlOperator operator(String setName, int index) {
        return GeneratedCallOperator.of("EVENT_MATCHES[" + setName + "#" + index + "]",
                (translator, call, operands) -> Expressions.call(
                        Expressions.call(EventPatternSet.class, "named", Expressions.constant(setName)), "matches",
                        operands.get(0), Expressions.constant(index)));
    }
}
