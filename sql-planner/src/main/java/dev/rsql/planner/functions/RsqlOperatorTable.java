package dev.rsql.planner.functions;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.ListSqlOperatorTable;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;

/**
 * Functions of the dialect beyond Calcite's standard library. Each is backed by a static Java method that the
 * generated code calls directly.
 */
public final class RsqlOperatorTable {

    public static final SqlOperator PROCTIME = new SqlUserDefinedFunction(
            new SqlIdentifier("PROCTIME", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 3), null,
            OperandTypes.operandMetadata(List.of(), f -> List.of(), i -> "", i -> false),
            ScalarFunctionImpl.create(TimeFunctions.class, "proctime")) {
        @Override
        public boolean isDeterministic() {
            return false;
        }

        @Override
        public boolean isDynamicFunction() {
            return true;
        }
    };

    private RsqlOperatorTable() {
    }

    public static ListSqlOperatorTable create() {
        return new ListSqlOperatorTable(List.of(PROCTIME));
    }
}
