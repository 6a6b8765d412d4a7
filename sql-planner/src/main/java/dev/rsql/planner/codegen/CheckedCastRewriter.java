package dev.rsql.planner.codegen;

import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;
import java.util.Map;

/**
 * Replaces a CAST from text to a number, BOOLEAN, DATE, TIME or TIMESTAMP (written, or added by Calcite to compare
 * a string with a number) by a {@link CheckedCasts} call that names the column when the value does not convert.
 */
final class CheckedCastRewriter {

    private static final Map<SqlTypeName, String> METHODS = Map.ofEntries(
            Map.entry(SqlTypeName.BIGINT, "toLong"), Map.entry(SqlTypeName.INTEGER, "toInt"),
            Map.entry(SqlTypeName.SMALLINT, "toShort"), Map.entry(SqlTypeName.TINYINT, "toByte"),
            Map.entry(SqlTypeName.FLOAT, "toFloat"), Map.entry(SqlTypeName.REAL, "toFloat"),
            Map.entry(SqlTypeName.DOUBLE, "toDouble"), Map.entry(SqlTypeName.DECIMAL, "toDecimal"),
            Map.entry(SqlTypeName.BOOLEAN, "toBoolean"), Map.entry(SqlTypeName.DATE, "toDate"),
            Map.entry(SqlTypeName.TIME, "toTime"), Map.entry(SqlTypeName.TIMESTAMP, "toTimestamp"));

    /** (text, column name) → the target type of the call. */
    static final SqlOperator CHECKED_CAST = GeneratedCallOperator.of("CAST", (translator, call, operands) -> {
        RelDataType type = call.getType();
        String method = METHODS.get(type.getSqlTypeName());
        if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return Expressions.call(CheckedCasts.class, method, operands.get(0),
                    Expressions.constant(type.getPrecision()), Expressions.constant(type.getScale()), operands.get(1));
        }
        Expression text = operands.get(0);
        return Expressions.call(CheckedCasts.class, method, text, operands.get(1));
    });

    private CheckedCastRewriter() {
    }

    static RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
        List<RexNode> exprs = program.getExprList();
        List<String> inputs = program.getInputRowType().getFieldNames();
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                if (c.getKind() != SqlKind.CAST || !METHODS.containsKey(c.getType().getSqlTypeName())) {
                    return c;
                }
                RexNode from = c.getOperands().get(0);
                if (!SqlTypeFamily.CHARACTER.contains(from.getType())) {
                    return c;
                }
                return rexBuilder.makeCall(c.getType(), CHECKED_CAST,
                        List.of(from, rexBuilder.makeLiteral(column(from, exprs, inputs))));
            }
        };
        return RexProgramBuilder.create(rexBuilder, program.getInputRowType(), exprs, program.getProjectList(),
                program.getCondition(), program.getOutputRowType(), shuttle, true).getProgram(false);
    }

    /** The input column the text comes from, or "" when it is computed. */
    private static String column(RexNode node, List<RexNode> exprs, List<String> inputs) {
        RexNode n = node instanceof RexLocalRef ? exprs.get(((RexLocalRef) node).getIndex()) : node;
        return n instanceof RexInputRef ? inputs.get(((RexInputRef) n).getIndex()) : "";
    }
}
