package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlOperandTypeInference;

import java.util.List;

/** Overload-based operand checking for operators built outside this package (user aggregate functions). */
public class SignaturesAccess implements SqlOperandMetadata, SqlOperandTypeInference {

    private final Signatures signatures;

    protected SignaturesAccess(String name, List<Overload> overloads) {
        this.signatures = new Signatures(name, overloads);
    }

    @Override
    public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
        return signatures.checkOperandTypes(binding, throwOnFailure);
    }

    @Override
    public void inferOperandTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
        signatures.inferOperandTypes(binding, returnType, operandTypes);
    }

    @Override
    public SqlOperandCountRange getOperandCountRange() {
        return signatures.getOperandCountRange();
    }

    @Override
    public String getAllowedSignatures(SqlOperator op, String opName) {
        return signatures.getAllowedSignatures(op, opName);
    }

    @Override
    public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
        return List.of();
    }

    @Override
    public List<String> paramNames() {
        return List.of();
    }

    @Override
    public boolean isFixedParameters() {
        return false;
    }
}
