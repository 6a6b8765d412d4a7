package dev.rsql.runtime.types;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Conversions between the internal numeric values of the different SQL number types. */
public final class Numbers {

    private Numbers() {
    }

    public static boolean isIntegral(DataType t) {
        switch (t.kind()) {
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT:
                return true;
            default:
                return false;
        }
    }

    public static boolean isApproximate(DataType t) {
        return t.kind() == DataType.Kind.FLOAT || t.kind() == DataType.Kind.DOUBLE;
    }

    public static long toLong(Object v) {
        return ((Number) v).longValue();
    }

    public static double toDouble(Object v) {
        return ((Number) v).doubleValue();
    }

    public static BigDecimal toDecimal(Object v) {
        if (v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        if (v instanceof Double || v instanceof Float) {
            return BigDecimal.valueOf(((Number) v).doubleValue());
        }
        return BigDecimal.valueOf(((Number) v).longValue());
    }

    /** A long as a value of the given numeric type. */
    public static Object fromLong(long v, DataType t) {
        switch (t.kind()) {
            case TINYINT:
                return (byte) v;
            case SMALLINT:
                return (short) v;
            case INT:
                return (int) v;
            case BIGINT:
                return v;
            case FLOAT:
                return (float) v;
            case DOUBLE:
                return (double) v;
            case DECIMAL:
                return BigDecimal.valueOf(v).setScale(t.scale(), RoundingMode.HALF_UP);
            default:
                throw new IllegalArgumentException("not a number type: " + t);
        }
    }

    public static Object fromDouble(double v, DataType t) {
        switch (t.kind()) {
            case FLOAT:
                return (float) v;
            case DOUBLE:
                return v;
            case DECIMAL:
                return BigDecimal.valueOf(v).setScale(t.scale(), RoundingMode.HALF_UP);
            default:
                return fromLong((long) v, t);
        }
    }

    public static Object fromDecimal(BigDecimal v, DataType t) {
        switch (t.kind()) {
            case DECIMAL:
                return v.setScale(t.scale(), RoundingMode.HALF_UP);
            case FLOAT:
            case DOUBLE:
                return fromDouble(v.doubleValue(), t);
            default:
                return fromLong(v.longValue(), t);
        }
    }

    /** {@code sum / count} in the result type: integer division for integral types, as SQL's AVG(INT) does. */
    public static Object divide(Object sum, long count, DataType sumKind, DataType result) {
        if (isIntegral(sumKind)) {
            long s = (Long) sum;
            return isIntegral(result) ? fromLong(s / count, result)
                    : result.kind() == DataType.Kind.DECIMAL
                    ? fromDecimal(BigDecimal.valueOf(s).divide(BigDecimal.valueOf(count), MathContext.DECIMAL128), result)
                    : fromDouble((double) s / count, result);
        }
        if (sumKind.kind() == DataType.Kind.DECIMAL) {
            return fromDecimal(((BigDecimal) sum).divide(BigDecimal.valueOf(count), MathContext.DECIMAL128), result);
        }
        return fromDouble((Double) sum / count, result);
    }
}
