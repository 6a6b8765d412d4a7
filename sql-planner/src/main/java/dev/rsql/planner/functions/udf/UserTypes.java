package dev.rsql.planner.functions.udf;

import dev.rsql.planner.functions.ParamType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.flink.table.types.AtomicType;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.DecimalType;
import org.apache.flink.table.types.RowType;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HashMap;
import java.util.Map;

/**
 * SQL types of user function signatures: Java classes (as in Blink's UDX type table: {@code Integer} INT,
 * {@code java.sql.Timestamp} TIMESTAMP, ... plus primitives and {@code java.time} classes), Blink
 * {@link DataType}s, and generic type arguments.
 */
public final class UserTypes {

    private UserTypes() {
    }

    /** The SQL type of a Java parameter or result class, or null when it has none. */
    public static ParamType of(Class<?> c) {
        if (c == String.class || c == Character.class || c == char.class) {
            return ParamType.VARCHAR;
        }
        if (c == Integer.class || c == int.class) {
            return ParamType.INT;
        }
        if (c == Long.class || c == long.class) {
            return ParamType.BIGINT;
        }
        if (c == Short.class || c == short.class) {
            return ParamType.SMALLINT;
        }
        if (c == Byte.class || c == byte.class) {
            return ParamType.TINYINT;
        }
        if (c == Float.class || c == float.class) {
            return ParamType.FLOAT;
        }
        if (c == Double.class || c == double.class) {
            return ParamType.DOUBLE;
        }
        if (c == Boolean.class || c == boolean.class) {
            return ParamType.BOOLEAN;
        }
        if (c == BigDecimal.class) {
            return ParamType.DECIMAL;
        }
        if (c == Timestamp.class || c == LocalDateTime.class || c == Instant.class) {
            return ParamType.TIMESTAMP;
        }
        if (c == Date.class || c == LocalDate.class) {
            return ParamType.DATE;
        }
        if (c == Time.class || c == LocalTime.class) {
            return ParamType.TIME;
        }
        if (c == byte[].class) {
            return ParamType.VARBINARY;
        }
        if (Map.class.isAssignableFrom(c)) {
            return ParamType.MAP;
        }
        if (c == Object.class) {
            return ParamType.ANY;
        }
        return null;
    }

    /** The SQL type of a Blink {@link DataType}. */
    public static RelDataType of(DataType t, RelDataTypeFactory f) {
        if (t instanceof RowType) {
            RowType row = (RowType) t;
            RelDataTypeFactory.Builder b = f.builder();
            DataType[] types = row.getFieldTypes();
            String[] names = row.getFieldNames();
            for (int i = 0; i < types.length; i++) {
                b.add(names[i], of(types[i], f));
            }
            return b.build();
        }
        if (t instanceof DecimalType) {
            DecimalType d = (DecimalType) t;
            return nullable(f.createSqlType(SqlTypeName.DECIMAL, d.precision(), d.scale()), f);
        }
        if (t instanceof AtomicType) {
            switch (((AtomicType) t).sqlName()) {
                case "VARCHAR":
                case "CHAR":
                    return ParamType.VARCHAR.type(f);
                case "BOOLEAN":
                    return ParamType.BOOLEAN.type(f);
                case "DOUBLE":
                    return ParamType.DOUBLE.type(f);
                case "FLOAT":
                    return ParamType.FLOAT.type(f);
                case "TINYINT":
                    return ParamType.TINYINT.type(f);
                case "SMALLINT":
                    return ParamType.SMALLINT.type(f);
                case "INT":
                    return ParamType.INT.type(f);
                case "BIGINT":
                    return ParamType.BIGINT.type(f);
                case "VARBINARY":
                    return ParamType.VARBINARY.type(f);
                case "DATE":
                    return ParamType.DATE.type(f);
                case "TIME":
                    return ParamType.TIME.type(f);
                case "TIMESTAMP":
                    return ParamType.TIMESTAMP.type(f);
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("data type " + t + " is not supported in a function signature");
    }

    static RelDataType nullable(RelDataType t, RelDataTypeFactory f) {
        return f.createTypeWithNullability(t, true);
    }

    /**
     * The actual type argument {@code index} of {@code generic} (e.g. T of {@code TableFunction<T>}) as seen from
     * {@code c}, following the superclass chain; null if it is not bound.
     */
    public static Type typeArgument(Class<?> c, Class<?> generic, int index) {
        Map<TypeVariable<?>, Type> bindings = new HashMap<>();
        Class<?> k = c;
        while (k != null && k != Object.class) {
            Type sup = k.getGenericSuperclass();
            if (sup instanceof ParameterizedType) {
                ParameterizedType p = (ParameterizedType) sup;
                Class<?> raw = (Class<?>) p.getRawType();
                TypeVariable<?>[] vars = raw.getTypeParameters();
                Type[] args = p.getActualTypeArguments();
                for (int i = 0; i < vars.length; i++) {
                    Type a = args[i];
                    while (a instanceof TypeVariable && bindings.containsKey(a)) {
                        a = bindings.get(a);
                    }
                    bindings.put(vars[i], a);
                }
                if (raw == generic) {
                    Type t = bindings.get(vars[index]);
                    return t instanceof TypeVariable ? null : t;
                }
                k = raw;
            } else if (sup instanceof Class) {
                if (sup == generic) {
                    return null;
                }
                k = (Class<?>) sup;
            } else {
                return null;
            }
        }
        return null;
    }

    /** The raw class of a type, or null. */
    public static Class<?> raw(Type t) {
        if (t instanceof Class) {
            return (Class<?>) t;
        }
        if (t instanceof ParameterizedType) {
            return (Class<?>) ((ParameterizedType) t).getRawType();
        }
        return null;
    }
}
