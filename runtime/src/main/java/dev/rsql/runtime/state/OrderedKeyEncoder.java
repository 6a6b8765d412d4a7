package dev.rsql.runtime.state;

import dev.rsql.runtime.types.DataType;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes sort fields of a row as bytes whose unsigned lexicographic order is the rows' order by those fields (each
 * ascending or descending, NULLs first or last), so that state entries stored under them iterate sorted. Strings
 * order by their UTF-8 bytes (code point order, as Flink compares strings).
 */
public final class OrderedKeyEncoder {

    private final int[] fields;
    private final DataType[] types;
    private final boolean[] descending;
    private final boolean[] nullsFirst;

    public OrderedKeyEncoder(List<DataType> rowTypes, int[] fields, boolean[] descending, boolean[] nullsFirst) {
        this.fields = fields.clone();
        this.types = new DataType[fields.length];
        for (int i = 0; i < fields.length; i++) {
            types[i] = rowTypes.get(fields[i]);
            checkSortable(types[i]);
        }
        this.descending = descending.clone();
        this.nullsFirst = nullsFirst.clone();
    }

    private static void checkSortable(DataType type) {
        switch (type.kind()) {
            case ARRAY, MULTISET, MAP, ROW, NULL ->
                    throw new IllegalArgumentException("cannot order by a value of type " + type);
            default -> {
            }
        }
    }

    public byte[] encode(Object[] row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16);
        for (int i = 0; i < fields.length; i++) {
            int start = out.size();
            Object v = row[fields[i]];
            // The null marker sorts before (0) or after (2) every value marker (1), whatever the direction.
            boolean nullLow = nullsFirst[i] != descending[i];
            if (v == null) {
                out.write(nullLow ? 0 : 2);
            } else {
                out.write(1);
                writeValue(out, types[i], v);
            }
            if (descending[i]) {
                invertFrom(out, start);
            }
        }
        return out.toByteArray();
    }

    /** Inverts the bytes written since {@code start} (descending order). */
    private static void invertFrom(ByteArrayOutputStream out, int start) {
        byte[] all = out.toByteArray();
        out.reset();
        out.write(all, 0, start);
        for (int i = start; i < all.length; i++) {
            out.write(~all[i] & 0xff);
        }
    }

    private static void writeValue(ByteArrayOutputStream out, DataType type, Object v) {
        switch (type.kind()) {
            case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ ->
                    writeLong(out, ((Number) v).longValue());
            case FLOAT, DOUBLE -> {
                long bits = Double.doubleToLongBits(((Number) v).doubleValue());
                // Positive doubles order as their bits; negative ones reversed: flip all bits of negatives, the sign
                // bit of positives.
                writeLong(out, bits < 0 ? ~bits ^ Long.MIN_VALUE : bits);
            }
            case DECIMAL -> writeDecimal(out, (BigDecimal) v);
            case CHAR, VARCHAR -> writeTerminated(out, ((String) v).getBytes(StandardCharsets.UTF_8));
            case BINARY, VARBINARY -> writeTerminated(out, (byte[]) v);
            default -> throw new IllegalArgumentException("cannot order by a value of type " + type);
        }
    }

    private static void writeLong(ByteArrayOutputStream out, long v) {
        byte[] b = new byte[8];
        Namespaces.putOrderedLong(b, 0, v);
        out.write(b, 0, 8);
    }

    /**
     * A decimal as sign, then (for non-zero values) the exponent of its leading digit and its digits, each made to
     * order by magnitude and inverted for negative values.
     */
    private static void writeDecimal(ByteArrayOutputStream out, BigDecimal v) {
        int sign = v.signum();
        out.write(sign + 1);
        if (sign == 0) {
            return;
        }
        BigDecimal abs = v.abs().stripTrailingZeros();
        String digits = abs.unscaledValue().toString();
        long exponent = digits.length() - (long) abs.scale();
        ByteArrayOutputStream magnitude = new ByteArrayOutputStream();
        writeLong(magnitude, exponent);
        for (int i = 0; i < digits.length(); i++) {
            magnitude.write(digits.charAt(i) - '0' + 1);
        }
        magnitude.write(0);
        byte[] m = magnitude.toByteArray();
        for (byte b : m) {
            out.write(sign < 0 ? ~b & 0xff : b & 0xff);
        }
    }

    /** Bytes with 0x00 escaped as 0x00 0xFF and a 0x00 0x00 terminator, so that a prefix sorts first. */
    private static void writeTerminated(ByteArrayOutputStream out, byte[] bytes) {
        for (byte b : bytes) {
            out.write(b);
            if (b == 0) {
                out.write(0xff);
            }
        }
        out.write(0);
        out.write(0);
    }
}
