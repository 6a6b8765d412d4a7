package dev.rsql.planner.codegen;

import dev.rsql.runtime.graph.FunctionException;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.runtime.SqlFunctions;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * CASTs from text that generated code calls instead of Calcite's: the same conversions, but a value that does not
 * convert is a {@link FunctionException} naming the column and the target type, so the task reports the table and
 * record position and the table's error policy applies, instead of a bare {@code NumberFormatException}.
 */
public final class CheckedCasts {

    private CheckedCasts() {
    }

    public static long toLong(String value, String column) {
        try {
            return SqlFunctions.toLong(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "BIGINT");
        }
    }

    public static int toInt(String value, String column) {
        try {
            return SqlFunctions.toInt(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "INT");
        }
    }

    public static short toShort(String value, String column) {
        try {
            return SqlFunctions.toShort(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "SMALLINT");
        }
    }

    public static byte toByte(String value, String column) {
        try {
            return Byte.parseByte(value.trim());
        } catch (RuntimeException e) {
            throw failed(value, column, "TINYINT");
        }
    }

    public static float toFloat(String value, String column) {
        try {
            return SqlFunctions.toFloat(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "FLOAT");
        }
    }

    public static double toDouble(String value, String column) {
        try {
            return SqlFunctions.toDouble(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "DOUBLE");
        }
    }

    public static BigDecimal toDecimal(String value, int precision, int scale, String column) {
        Object d;
        try {
            d = Primitive.charToDecimalCast(value, precision, scale, RoundingMode.DOWN);
        } catch (RuntimeException e) {
            throw failed(value, column, "DECIMAL(" + precision + ", " + scale + ")");
        }
        return d == null ? null : SqlFunctions.toBigDecimal(d);
    }

    public static boolean toBoolean(String value, String column) {
        try {
            return SqlFunctions.toBoolean(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "BOOLEAN");
        }
    }

    /** Days since the epoch. */
    public static int toDate(String value, String column) {
        try {
            return DateTimeUtils.dateStringToUnixDate(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "DATE");
        }
    }

    /** Milliseconds of the day. */
    public static int toTime(String value, String column) {
        try {
            return DateTimeUtils.timeStringToUnixDate(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "TIME");
        }
    }

    /** Milliseconds since the epoch. */
    public static long toTimestamp(String value, String column) {
        try {
            return DateTimeUtils.timestampStringToUnixDate(value);
        } catch (RuntimeException e) {
            throw failed(value, column, "TIMESTAMP");
        }
    }

    private static FunctionException failed(String value, String column, String type) {
        return new FunctionException("CAST", new Object[] {value}, (column.isEmpty() ? "the value" : "column "
                + column) + " is not a valid " + type);
    }
}
