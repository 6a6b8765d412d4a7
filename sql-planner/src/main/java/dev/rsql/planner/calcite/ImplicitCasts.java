package dev.rsql.planner.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Flink's implicit casts for writing a query column into a sink column (LogicalTypeCasts#supportsImplicitCast):
 * only casts that cannot fail on a value. Numbers widen (an exact number into a wider one, any number into
 * DECIMAL or DOUBLE), character strings go into character strings, binary into binary, TIMESTAMP into DATE, TIME
 * and TIMESTAMP of any precision, and NULL into anything; constructed types cast when their parts do. A STRING
 * into a BIGINT needs an explicit CAST. Nullability is not compared: a NULL in a NOT NULL column is a record
 * error, as in Flink.
 */
public final class ImplicitCasts {

    private static final List<SqlTypeName> INTEGERS =
            List.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);
    private static final Set<SqlTypeName> TIMESTAMPS =
            EnumSet.of(SqlTypeName.TIMESTAMP, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private ImplicitCasts() {
    }

    public static boolean allowed(RelDataType from, RelDataType to) {
        SqlTypeName f = from.getSqlTypeName();
        SqlTypeName t = to.getSqlTypeName();
        if (f == SqlTypeName.NULL || t == SqlTypeName.ANY || f == SqlTypeName.ANY) {
            return true;
        }
        switch (t) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                return INTEGERS.contains(f) && INTEGERS.indexOf(f) <= INTEGERS.indexOf(t);
            case FLOAT:
            case REAL:
                return INTEGERS.contains(f) || f == SqlTypeName.DECIMAL || f == SqlTypeName.FLOAT
                        || f == SqlTypeName.REAL;
            case DECIMAL:
            case DOUBLE:
                return SqlTypeFamily.NUMERIC.contains(from);
            case CHAR:
            case VARCHAR:
                return SqlTypeFamily.CHARACTER.contains(from);
            case BINARY:
            case VARBINARY:
                return SqlTypeFamily.BINARY.contains(from);
            case DATE:
                return f == SqlTypeName.DATE || f == SqlTypeName.TIMESTAMP;
            case TIME:
                return f == SqlTypeName.TIME || f == SqlTypeName.TIMESTAMP;
            case TIMESTAMP:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TIMESTAMPS.contains(f);
            case ARRAY:
            case MULTISET:
                return f == t && allowed(from.getComponentType(), to.getComponentType());
            case MAP:
                return f == t && allowed(from.getKeyType(), to.getKeyType())
                        && allowed(from.getValueType(), to.getValueType());
            case ROW:
                return f == t && rowAllowed(from.getFieldList(), to.getFieldList());
            default:
                if (SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(to)) {
                    return SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(from);
                }
                if (SqlTypeFamily.INTERVAL_DAY_TIME.contains(to)) {
                    return SqlTypeFamily.INTERVAL_DAY_TIME.contains(from);
                }
                return f == t;
        }
    }

    private static boolean rowAllowed(List<RelDataTypeField> from, List<RelDataTypeField> to) {
        if (from.size() != to.size()) {
            return false;
        }
        for (int i = 0; i < from.size(); i++) {
            if (!allowed(from.get(i).getType(), to.get(i).getType())) {
                return false;
            }
        }
        return true;
    }
}
