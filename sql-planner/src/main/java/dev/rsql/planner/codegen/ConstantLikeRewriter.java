package dev.rsql.planner.codegen;

import dev.rsql.planner.functions.LikeMatcher;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Replaces {@code x LIKE 'constant'} in a calc program by a call on a {@link LikeMatcher} compiled once per job,
 * instead of Calcite's per-row pattern cache lookup.
 */
final class ConstantLikeRewriter {

    static final SqlOperator CONSTANT_LIKE = GeneratedCallOperator.of("LIKE", (translator, call, operands) -> {
        Expression escape = operands.size() > 2 ? operands.get(2) : Expressions.constant(null, String.class);
        return Expressions.call(Expressions.call(LikeMatcher.class, "compile", operands.get(1), escape), "matches",
                operands.get(0));
    });

    private ConstantLikeRewriter() {
    }

    static RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
        List<RexNode> exprs = program.getExprList();
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                if (c.getOperator() != SqlStdOperatorTable.LIKE) {
                    return c;
                }
                for (int i = 1; i < c.getOperands().size(); i++) {
                    if (!isCharLiteral(c.getOperands().get(i), exprs)) {
                        return c;
                    }
                }
                return rexBuilder.makeCall(c.getType(), CONSTANT_LIKE, new ArrayList<>(c.getOperands()));
            }
        };
        return RexProgramBuilder.create(rexBuilder, program.getInputRowType(), exprs, program.getProjectList(),
                program.getCondition(), program.getOutputRowType(), shuttle, true).getProgram(false);
    }

    private static boolean isCharLiteral(RexNode node, List<RexNode> exprs) {
        RexNode n = node instanceof RexLocalRef ? exprs.get(((RexLocalRef) node).getIndex()) : node;
        return n instanceof RexLiteral && ((RexLiteral) n).getValueAs(String.class) != null;
    }
}
