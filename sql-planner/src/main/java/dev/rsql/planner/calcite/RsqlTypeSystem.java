package dev.rsql.planner.calcite;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Type rules of the dialect: Blink's VARCHAR without a length is unbounded, TIMESTAMP has millisecond precision, a
 * CASE over string literals of different lengths gives VARCHAR (not blank-padded CHAR), DECIMAL goes to 38 digits.
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
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}
