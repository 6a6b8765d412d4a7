package org.apache.flink.table.types;

/** SQL DECIMAL(p, s) (Java {@code BigDecimal}). */
public final class DecimalType extends AtomicType {

    private static final long serialVersionUID = 1L;

    public static final int MAX_PRECISION = 38;

    public static final DecimalType SYSTEM_DEFAULT = new DecimalType(MAX_PRECISION, 18);

    private final int precision;
    private final int scale;

    public DecimalType(int precision, int scale) {
        if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
            throw new IllegalArgumentException("invalid DECIMAL(" + precision + ", " + scale + ")");
        }
        this.precision = precision;
        this.scale = scale;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    @Override
    public String sqlName() {
        return "DECIMAL(" + precision + ", " + scale + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecimalType && ((DecimalType) o).precision == precision && ((DecimalType) o).scale == scale;
    }

    @Override
    public int hashCode() {
        return precision * 31 + scale;
    }
}
