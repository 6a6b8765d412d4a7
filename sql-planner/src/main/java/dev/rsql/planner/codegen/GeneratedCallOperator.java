package dev.rsql.planner.codegen;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NotNullImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import java.util.List;

/**
 * An operator that exists only between a rewrite of a calc program and code generation: calls to it are already
 * typed, and generate the code its implementor gives (NULL in, NULL out).
 */
final class GeneratedCallOperator {

    private GeneratedCallOperator() {
    }

    static SqlOperator of(String name, NotNullImplementor implementor) {
        CallImplementor call = RexImpTable.createImplementor(implementor, NullPolicy.STRICT, false);
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0_NULLABLE, null, OperandTypes.operandMetadata(List.of(), f -> List.of(), i -> "",
                i -> false),
                new ImplementableFunction() {
                    @Override
                    public CallImplementor getImplementor() {
                        return call;
                    }

                    @Override
                    public List<FunctionParameter> getParameters() {
                        return List.of();
                    }
                });
    }
}
