package dev.rsql.planner.codegen;

import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeFamily;

import java.lang.reflect.Type;

/** Reads field {@code i} of the input row ({@code Object[] in}) as the type Calcite's generated code expects. */
final class RowInputGetter implements RexToLixTranslator.InputGetter {

    private final ParameterExpression row;
    private final RelDataType rowType;
    private final PhysType physType;

    RowInputGetter(ParameterExpression row, RelDataType rowType, JavaTypeFactory typeFactory) {
        this.row = row;
        this.rowType = rowType;
        this.physType = PhysTypeImpl.of(typeFactory, rowType, JavaRowFormat.ARRAY, false);
    }

    @Override
    public Expression field(BlockBuilder list, int index, Type storageType) {
        RelDataType fieldType = rowType.getFieldList().get(index).getType();
        if (SqlTypeFamily.BINARY.contains(fieldType)) {
            Expression value = Expressions.call(CodegenSupport.class, "toByteString",
                    Expressions.arrayIndex(row, Expressions.constant(index)));
            return storageType == null ? value : EnumUtils.convert(value, storageType);
        }
        return physType.fieldReference(row, index, storageType);
    }
}
