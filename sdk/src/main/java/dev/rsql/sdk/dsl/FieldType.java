package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.DataType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.Function;

/**
 * How one Java type is held in a row: its runtime {@link DataType} and the conversions between a Java value and the
 * engine's internal value (TIMESTAMP as epoch milliseconds, DATE as epoch days, ...). Primitives read a NULL as their
 * zero.
 */
record FieldType(Class<?> javaType, DataType dataType, Function<Object, Object> toInternal,
                 Function<Object, Object> fromInternal) {

    /** A Java {@code long} of epoch milliseconds held as TIMESTAMP(3) (window bounds). */
    static final FieldType EPOCH_MILLIS = new FieldType(long.class, DataType.timestamp(3), v -> v,
            v -> v == null ? 0L : v);

    /** The field type of {@code type}, or null when it is not a single column (a record or POJO). */
    static FieldType of(Class<?> type) {
        if (type == String.class) {
            return same(type, DataType.string());
        } else if (type == Long.class || type == long.class) {
            return primitive(type, DataType.Kind.BIGINT, 0L);
        } else if (type == Integer.class || type == int.class) {
            return primitive(type, DataType.Kind.INT, 0);
        } else if (type == Double.class || type == double.class) {
            return primitive(type, DataType.Kind.DOUBLE, 0.0);
        } else if (type == Float.class || type == float.class) {
            return primitive(type, DataType.Kind.FLOAT, 0.0f);
        } else if (type == Boolean.class || type == boolean.class) {
            return primitive(type, DataType.Kind.BOOLEAN, false);
        } else if (type == Short.class || type == short.class) {
            return primitive(type, DataType.Kind.SMALLINT, (short) 0);
        } else if (type == Byte.class || type == byte.class) {
            return primitive(type, DataType.Kind.TINYINT, (byte) 0);
        } else if (type == BigDecimal.class) {
            return same(type, DataType.decimal(38, 18));
        } else if (type == byte[].class) {
            return same(type, DataType.of(DataType.Kind.VARBINARY));
        } else if (type == Instant.class) {
            return new FieldType(type, DataType.timestamp(3), v -> v == null ? null : ((Instant) v).toEpochMilli(),
                    v -> v == null ? null : Instant.ofEpochMilli((Long) v));
        } else if (type == LocalDateTime.class) {
            return new FieldType(type, DataType.timestamp(3),
                    v -> v == null ? null : ((LocalDateTime) v).toInstant(ZoneOffset.UTC).toEpochMilli(),
                    v -> v == null ? null : LocalDateTime.ofInstant(Instant.ofEpochMilli((Long) v), ZoneOffset.UTC));
        } else if (type == LocalDate.class) {
            return new FieldType(type, DataType.of(DataType.Kind.DATE),
                    v -> v == null ? null : (int) ((LocalDate) v).toEpochDay(),
                    v -> v == null ? null : LocalDate.ofEpochDay((Integer) v));
        } else if (type.isEnum()) {
            return new FieldType(type, DataType.string(), v -> v == null ? null : ((Enum<?>) v).name(),
                    v -> v == null ? null : enumValue(type, (String) v));
        }
        return null;
    }

    private static FieldType same(Class<?> type, DataType dataType) {
        return new FieldType(type, dataType, v -> v, v -> v);
    }

    private static FieldType primitive(Class<?> type, DataType.Kind kind, Object zero) {
        return new FieldType(type, DataType.of(kind), v -> v,
                type.isPrimitive() ? v -> v == null ? zero : v : v -> v);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }
}
