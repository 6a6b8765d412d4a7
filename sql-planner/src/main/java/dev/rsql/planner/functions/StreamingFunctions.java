package dev.rsql.planner.functions;

import org.apache.calcite.linq4j.function.Deterministic;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.Optionality;

import java.util.List;

/**
 * Functions of streaming SQL that Calcite lacks or defines differently: Blink's {@code withOffset} watermark strategy,
 * the CUMULATE window table function, and FIRST_VALUE / LAST_VALUE / CONCAT_AGG as plain aggregates (Calcite's
 * FIRST_VALUE and LAST_VALUE need an OVER clause).
 */
public final class StreamingFunctions {

    /** {@code WITHOFFSET(rowtime, ms)}: the rowtime minus an offset, Blink's bounded out-of-orderness watermark. */
    public static final SqlOperator WITH_OFFSET = new SqlUserDefinedFunction(
            new SqlIdentifier("WITHOFFSET", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0_NULLABLE, null,
            OperandTypes.operandMetadata(List.of(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.INTEGER),
                    f -> List.of(f.createSqlType(SqlTypeName.TIMESTAMP, 3), f.createSqlType(SqlTypeName.BIGINT)),
                    i -> i == 0 ? "rowtime" : "offset", i -> false),
            ScalarFunctionImpl.create(StreamingFunctions.class, "withOffset"));

    public static final SqlOperator TUMBLE = new WindowTableFunction("TUMBLE", operands(SqlStdOperatorTable.TUMBLE));
    public static final SqlOperator HOP = new WindowTableFunction("HOP", operands(SqlStdOperatorTable.HOP));

    /** {@code CUMULATE(TABLE t, DESCRIPTOR(ts), step, max size [, offset])}: HOP's operands. */
    public static final SqlOperator CUMULATE = new WindowTableFunction("CUMULATE", operands(SqlStdOperatorTable.HOP));

    /**
     * {@code SESSION(TABLE t, DESCRIPTOR(ts) [, DESCRIPTOR(k)], gap)}; Flink's {@code TABLE t PARTITION BY k} is
     * rewritten to the key descriptor. Sessions are per GROUP BY key either way.
     */
    public static final SqlOperator SESSION = new WindowTableFunction("SESSION",
            operands(SqlStdOperatorTable.SESSION));

    public static final SqlAggFunction FIRST_VALUE = new ValueAggFunction("FIRST_VALUE", SqlKind.FIRST_VALUE);
    public static final SqlAggFunction LAST_VALUE = new ValueAggFunction("LAST_VALUE", SqlKind.LAST_VALUE);

    /** Blink's {@code CONCAT_AGG([delimiter,] value)}. */
    public static final SqlAggFunction CONCAT_AGG = new SqlAggFunction("CONCAT_AGG", null, SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(
                    (binding, type) -> binding.getTypeFactory().createTypeWithNullability(type, true)),
            null, OperandTypes.or(OperandTypes.STRING, OperandTypes.STRING_STRING),
            SqlFunctionCategory.SYSTEM, false, false, Optionality.FORBIDDEN) {
    };

    private StreamingFunctions() {
    }

    /** They hide Calcite's operators of the same names (see {@link LayeredOperatorTable}). */
    public static List<SqlOperator> operators() {
        return List.of(WITH_OFFSET, TUMBLE, HOP, CUMULATE, SESSION, FIRST_VALUE, LAST_VALUE, CONCAT_AGG);
    }

    private static SqlOperandMetadata operands(SqlOperator windowFunction) {
        return (SqlOperandMetadata) windowFunction.getOperandTypeChecker();
    }

    @Deterministic
    @Strict // a NULL rowtime gives a NULL watermark, which does not advance the watermark
    public static long withOffset(long rowtime, long offset) {
        return rowtime - offset;
    }

    /** FIRST_VALUE / LAST_VALUE as an aggregate: the first or last non-NULL value of the group, in arrival order. */
    private static final class ValueAggFunction extends SqlAggFunction {
        ValueAggFunction(String name, SqlKind kind) {
            super(name, null, kind, ReturnTypes.ARG0_FORCE_NULLABLE, null, OperandTypes.ANY,
                    SqlFunctionCategory.NUMERIC, false, false, Optionality.FORBIDDEN);
        }
    }
}
