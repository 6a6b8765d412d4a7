package dev.rsql.planner.codegen;

import dev.rsql.planner.functions.DateTimeFunctions;
import dev.rsql.planner.functions.TimeZones;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * {@code CAST(ts AS VARCHAR)} keeps the timestamp's fraction, as Flink and Blink print it
 * ({@code 2024-01-01 10:00:00.120} for a TIMESTAMP(3)); Calcite's cast drops it. A TIMESTAMP_LTZ is shown the same
 * way in the job's time zone, as Flink does (Calcite appends the zone's name).
 */
final class TimestampCastRewriter {

    /** (timestamp, precision) → text with that many fractional digits. */
    static final SqlOperator TIMESTAMP_TO_STRING = GeneratedCallOperator.of("CAST", (translator, call, operands) ->
            Expressions.call(DateTimeUtils.class, "unixTimestampToString", operands.get(0), operands.get(1)));

    /** (instant, precision) → text of its wall-clock time in the job's zone, with that many fractional digits. */
    static final SqlOperator LTZ_TO_STRING = GeneratedCallOperator.of("CAST", (translator, call, operands) ->
            Expressions.call(DateTimeFunctions.class, "ltzToString",
                    Expressions.call(TimeZones.class, "of", translator.getRoot()), operands.get(0), operands.get(1)));

    private TimestampCastRewriter() {
    }

    static RexProgram rewrite(RexProgram program, RexBuilder rexBuilder) {
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                if (c.getKind() != SqlKind.CAST || !SqlTypeFamily.CHARACTER.contains(c.getType())) {
                    return c;
                }
                RexNode from = c.getOperands().get(0);
                SqlTypeName fromType = from.getType().getSqlTypeName();
                if (fromType != SqlTypeName.TIMESTAMP && fromType != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                    return c;
                }
                RexNode text = rexBuilder.makeCall(rexBuilder.getTypeFactory().createTypeWithNullability(
                        rexBuilder.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), from.getType().isNullable()),
                        fromType == SqlTypeName.TIMESTAMP ? TIMESTAMP_TO_STRING : LTZ_TO_STRING, List.of(from, rexBuilder.makeLiteral(from.getType().getPrecision(),
                                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.INTEGER))));
                // CHAR(n) / VARCHAR(n) targets still pad or truncate as the cast says.
                return rexBuilder.makeCast(c.getType(), text);
            }
        };
        return RexProgramBuilder.create(rexBuilder, program.getInputRowType(), program.getExprList(),
                program.getProjectList(), program.getCondition(), program.getOutputRowType(), shuttle, true)
                .getProgram(false);
    }
}
