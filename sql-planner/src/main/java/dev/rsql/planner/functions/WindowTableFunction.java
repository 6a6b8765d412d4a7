package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlWindowTableFunction;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A window table function as Flink defines it: the input's columns plus {@code window_start}, {@code window_end} and
 * {@code window_time} (the window's last millisecond, the time attribute of what is computed over the window; Calcite
 * has only the first two).
 */
final class WindowTableFunction extends SqlWindowTableFunction {

    private static final SqlReturnTypeInference WINDOW_COLUMNS = binding -> {
        RelDataType input = binding.getOperandType(0);
        RelDataTypeFactory f = binding.getTypeFactory();
        RelDataType time = f.createSqlType(SqlTypeName.TIMESTAMP, 3);
        return f.builder().kind(input.getStructKind()).addAll(input.getFieldList())
                .add("window_start", time).add("window_end", time).add("window_time", time).build();
    };

    WindowTableFunction(String name, SqlOperandMetadata operands) {
        super(name, operands);
    }

    @Override
    public SqlReturnTypeInference getRowTypeInference() {
        return WINDOW_COLUMNS;
    }
}
