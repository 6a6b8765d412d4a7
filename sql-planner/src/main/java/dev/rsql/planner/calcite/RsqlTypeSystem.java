package dev.rsql.planner.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Type rules of the dialect: Blink's VARCHAR without a length is unbounded, TIMESTAMP has millisecond precision, a
 * CASE over string literals of different lengths gives VARCHAR (not blank-padded CHAR), DECIMAL goes to 38 digits,
 * and, as in Flink, SUM of a DECIMAL(p, s) is a DECIMAL(38, s) and AVG a DECIMAL(38, max(6, s)).
 */
public final class RsqlTypeSystem extends RelDataTypeSystemImpl {

    public static final RsqlTypeSystem INSTANCE = new RsqlTypeSystem();

    /** Precision the engine stores time in (milliseconds). */
    public static final int TIMESTAMP_PRECISION = 3;

    private RsqlTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        switch (typeName) {
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return Integer.MAX_VALUE;
            case TIMESTAMP:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
            case TIME:
                return 9;
            case DECIMAL:
                return 38;
            default:
                return super.getMaxPrecision(typeName);
        }
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        switch (typeName) {
            case VARCHAR:
            case VARBINARY:
                return Integer.MAX_VALUE;
            case TIMESTAMP:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TIMESTAMP_PRECISION;
            case TIME:
                return 0;
            default:
                return super.getDefaultPrecision(typeName);
        }
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (argumentType.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return super.deriveSumType(typeFactory, argumentType);
        }
        return decimal(typeFactory, argumentType.getScale(), argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (argumentType.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return super.deriveAvgAggType(typeFactory, argumentType);
        }
        return decimal(typeFactory, Math.max(6, argumentType.getScale()), argumentType.isNullable());
    }

    private static RelDataType decimal(RelDataTypeFactory typeFactory, int scale, boolean nullable) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL, 38, scale),
                nullable);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}
