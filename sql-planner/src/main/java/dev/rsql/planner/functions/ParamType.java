package dev.rsql.planner.functions;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Locale;

/**
 * The SQL type of a function parameter or result, as function signatures declare it (built-ins) or as it follows from
 * a Java signature (user functions). {@link #cost} says how well an argument fits: 0 is exact, a small number a
 * widening the generated code does in Java (INT argument to a BIGINT parameter), {@link #COERCE} a CAST the validator
 * inserts, -1 no fit.
 */
public enum ParamType {
    BOOLEAN(SqlTypeName.BOOLEAN),
    TINYINT(SqlTypeName.TINYINT),
    SMALLINT(SqlTypeName.SMALLINT),
    INT(SqlTypeName.INTEGER),
    BIGINT(SqlTypeName.BIGINT),
    FLOAT(SqlTypeName.REAL),
    DOUBLE(SqlTypeName.DOUBLE),
    DECIMAL(SqlTypeName.DECIMAL),
    VARCHAR(SqlTypeName.VARCHAR),
    VARBINARY(SqlTypeName.VARBINARY),
    DATE(SqlTypeName.DATE),
    TIME(SqlTypeName.TIME),
    TIMESTAMP(SqlTypeName.TIMESTAMP),
    /** MAP&lt;VARCHAR, VARCHAR&gt; as a result; any map as a parameter. */
    MAP(SqlTypeName.MAP),
    /** Any type: the argument is passed as a Java object. */
    ANY(SqlTypeName.ANY);

    /** Cost of an argument that needs a CAST to the parameter type (any cost from here on means a CAST). */
    public static final int COERCE = 100;

    private final SqlTypeName typeName;

    ParamType(SqlTypeName typeName) {
        this.typeName = typeName;
    }

    public SqlTypeName typeName() {
        return typeName;
    }

    /** The nullable SQL type. */
    public RelDataType type(RelDataTypeFactory f) {
        RelDataType t;
        switch (this) {
            case VARCHAR:
                t = f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
                break;
            case VARBINARY:
                t = f.createSqlType(SqlTypeName.VARBINARY, Integer.MAX_VALUE);
                break;
            case TIMESTAMP:
                t = f.createSqlType(SqlTypeName.TIMESTAMP, 3);
                break;
            case TIME:
                t = f.createSqlType(SqlTypeName.TIME, 0);
                break;
            case DECIMAL:
                t = f.createSqlType(SqlTypeName.DECIMAL, 38, 18);
                break;
            case MAP: {
                RelDataType s = f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE), true);
                t = f.createMapType(s, s);
                break;
            }
            default:
                t = f.createSqlType(typeName);
        }
        return f.createTypeWithNullability(t, true);
    }

    /** How well an argument of type {@code arg} fits this parameter (see the class comment). */
    public int cost(RelDataType arg) {
        SqlTypeName a = arg.getSqlTypeName();
        if (a == SqlTypeName.NULL || a == SqlTypeName.UNKNOWN) {
            return 0;
        }
        boolean character = SqlTypeFamily.CHARACTER.contains(arg);
        switch (this) {
            case ANY:
                return 50;
            case VARCHAR:
                if (character) {
                    return 0;
                }
                return SqlTypeFamily.NUMERIC.contains(arg) || SqlTypeFamily.DATETIME.contains(arg)
                        || a == SqlTypeName.BOOLEAN ? COERCE : -1;
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT: {
                int argRank = integerRank(a);
                if (argRank >= 0) {
                    int rank = integerRank(typeName);
                    return argRank <= rank ? rank - argRank : COERCE + 10; // narrowing: a CAST
                }
                if (SqlTypeFamily.NUMERIC.contains(arg)) {
                    return COERCE + 20;
                }
                return character ? COERCE : -1;
            }
            case FLOAT:
                if (a == SqlTypeName.REAL) {
                    return 0;
                }
                if (integerRank(a) >= 0) {
                    return 5;
                }
                if (a == SqlTypeName.DECIMAL) {
                    return 6;
                }
                return character ? COERCE : -1;
            case DOUBLE:
                if (a == SqlTypeName.DOUBLE || a == SqlTypeName.FLOAT) {
                    return 0;
                }
                if (a == SqlTypeName.REAL) {
                    return 1;
                }
                if (integerRank(a) >= 0) {
                    return 5;
                }
                if (a == SqlTypeName.DECIMAL) {
                    return 6;
                }
                return character ? COERCE : -1;
            case DECIMAL:
                if (a == SqlTypeName.DECIMAL) {
                    return 0;
                }
                if (integerRank(a) >= 0) {
                    return 3;
                }
                if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(arg)) {
                    return 8;
                }
                return character ? COERCE : -1;
            case BOOLEAN:
                return a == SqlTypeName.BOOLEAN ? 0 : character ? COERCE : -1;
            case TIMESTAMP:
                if (a == SqlTypeName.TIMESTAMP) {
                    return 0;
                }
                if (a == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                    return 1;
                }
                return a == SqlTypeName.DATE || character ? COERCE : -1;
            case DATE:
                return a == SqlTypeName.DATE ? 0 : a == SqlTypeName.TIMESTAMP || character ? COERCE : -1;
            case TIME:
                return a == SqlTypeName.TIME ? 0 : character ? COERCE : -1;
            case VARBINARY:
                return SqlTypeFamily.BINARY.contains(arg) ? 0 : character ? COERCE : -1;
            case MAP:
                return a == SqlTypeName.MAP ? 0 : -1;
            default:
                return -1;
        }
    }

    private static int integerRank(SqlTypeName t) {
        switch (t) {
            case TINYINT:
                return 0;
            case SMALLINT:
                return 1;
            case INTEGER:
                return 2;
            case BIGINT:
                return 3;
            default:
                return -1;
        }
    }

    /** Parses a type as signatures write it: {@code VARCHAR}, {@code INT}, {@code BIGINT}, ... */
    public static ParamType parse(String token) {
        String t = token.trim().toUpperCase(Locale.ROOT);
        switch (t) {
            case "STRING":
                return VARCHAR;
            case "INTEGER":
                return INT;
            case "BYTES":
            case "BINARY":
                return VARBINARY;
            default:
                return valueOf(t);
        }
    }

    /** The name in signatures and docs. */
    public String sqlName() {
        return this == MAP ? "MAP<VARCHAR, VARCHAR>" : name();
    }
}
