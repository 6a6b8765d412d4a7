package org.apache.flink.table.types;

/**
 * The data types of Blink's UDF API, e.g. for {@code TableFunction.getResultType}:
 * {@code DataTypes.createRowType(DataTypes.STRING, DataTypes.LONG, DataTypes.INT)}.
 */
public final class DataTypes {

    public static final StringType STRING = StringType.INSTANCE;
    public static final BooleanType BOOLEAN = BooleanType.INSTANCE;
    public static final DoubleType DOUBLE = DoubleType.INSTANCE;
    public static final FloatType FLOAT = FloatType.INSTANCE;
    public static final ByteType BYTE = ByteType.INSTANCE;
    public static final IntType INT = IntType.INSTANCE;
    public static final LongType LONG = LongType.INSTANCE;
    public static final ShortType SHORT = ShortType.INSTANCE;
    public static final CharType CHAR = CharType.INSTANCE;
    public static final ByteArrayType BYTE_ARRAY = ByteArrayType.INSTANCE;
    public static final DateType DATE = DateType.DATE;
    public static final TimestampType TIMESTAMP = TimestampType.TIMESTAMP;
    public static final TimeType TIME = TimeType.INSTANCE;

    private DataTypes() {
    }

    public static DecimalType createDecimalType(int precision, int scale) {
        return new DecimalType(precision, scale);
    }

    /** A row with fields {@code f0, f1, ...}. */
    public static DataType createRowType(DataType... types) {
        return new RowType(types, null);
    }

    public static DataType createRowType(DataType[] types, String[] fieldNames) {
        return new RowType(types, fieldNames);
    }

    public static DataType createRowType(InternalType[] types, String[] fieldNames) {
        return new RowType(types, fieldNames);
    }
}
