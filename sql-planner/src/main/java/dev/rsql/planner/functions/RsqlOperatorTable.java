package dev.rsql.planner.functions;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.ListSqlOperatorTable;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.ArrayList;
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

    /** The engine's functions: PROCTIME, the streaming functions and the Blink built-ins ({@link BuiltinFunctions}). */
    public static ListSqlOperatorTable create() {
        List<SqlOperator> ops = new ArrayList<>();
        ops.add(PROCTIME);
        ops.addAll(StreamingFunctions.operators());
        ops.addAll(BuiltinFunctions.operators());
        return new ListSqlOperatorTable(ops);
    }

    /**
     * What the validator looks functions up in: the script's functions (CREATE FUNCTION), then the engine's, then
     * Calcite's standard operators; a name in a higher layer hides the same name below (see
     * {@link LayeredOperatorTable}).
     */
    public static SqlOperatorTable forScript(ScriptFunctions scriptFunctions) {
        return new LayeredOperatorTable(scriptFunctions, create(), SqlStdOperatorTable.instance());
    }
}
