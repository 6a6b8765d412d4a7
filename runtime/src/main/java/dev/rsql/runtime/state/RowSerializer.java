package dev.rsql.runtime.state;

import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Serializes rows ({@code Object[]} in the internal representation of {@link DataType}) of a fixed list of field
 * types.
 *
 * <p>Format: a null bitmap of {@code ceil(n / 8)} bytes (bit set = NULL), then each non-null field in order:
 * BOOLEAN/TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME/FLOAT 4, BIGINT/TIMESTAMP/TIMESTAMP_LTZ/DOUBLE 8 (big-endian,
 * FLOAT/DOUBLE as IEEE bits with NaN canonical); DECIMAL as zig-zag varint scale + varint length + two's complement
 * unscaled bytes; CHAR/VARCHAR as varint length + UTF-8; BINARY/VARBINARY as varint length + bytes; ARRAY as varint
 * count + element null bitmap + elements; MULTISET like ARRAY with elements sorted by their bytes; MAP as varint
 * count + entries (flags byte: bit 0 key NULL, bit 1 value NULL; key; value) sorted by their bytes; ROW recursively
 * as a row; NULL-typed fields take no bytes. The format is schema-driven: it carries no type tags, so the reader
 * must use the same types.
 *
 * <p>Determinism: the bytes depend only on the value. MAP entries and MULTISET elements are sorted by their bytes,
 * so equal maps and multisets give equal bytes whatever their iteration order (a deserialized MULTISET list comes
 * back in that sorted order). Two modes:
 * <ul>
 * <li>{@link #RowSerializer(List) value mode} is exact: {@code -0.0} stays {@code -0.0} and a DECIMAL keeps its scale
 * ({@code 1.0} and {@code 1.00} give different bytes), for state values such as accumulators.</li>
 * <li>{@link #forKeys key mode} normalizes what SQL considers equal, for grouping keys: {@code -0.0} is written as
 * {@code 0.0}, and a DECIMAL is written without trailing zeros so {@code 1.0}, {@code 1.00} and {@code 1} give equal
 * bytes; it is read back at the declared scale of its type when that is exact (so {@code 1.5} in DECIMAL(10, 2)
 * comes back as {@code 1.50}).</li>
 * </ul>
 * Numeric fields accept any {@link Number} (an Integer in a BIGINT field is written as the long), strings any
 * {@link CharSequence}. Immutable and thread-safe.
 */
public final class RowSerializer implements TypeSerializer<Object[]> {

    /** A per-thread output buffer, so that serializing a row allocates only the result. */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        ByteWriter out = new ByteWriter(256);
        boolean busy;
    }

    private final List<DataType> types;
    private final boolean keyMode;
    private final RowCodec codec;

    /** A serializer in value mode (exact). */
    public RowSerializer(List<DataType> types) {
        this(types, false);
    }

    private RowSerializer(List<DataType> types, boolean keyMode) {
        this.types = List.copyOf(types);
        this.keyMode = keyMode;
        this.codec = new RowCodec(this.types, keyMode);
    }

    public static RowSerializer of(RowType rowType) {
        return new RowSerializer(rowType.types());
    }

    /** A serializer in key mode: values SQL considers equal (0.0 and -0.0, 1.0 and 1.00) give equal bytes. */
    public static RowSerializer forKeys(List<DataType> types) {
        return new RowSerializer(types, true);
    }

    /** A key-mode serializer of the given fields of rows of this type. */
    public static RowSerializer forKeys(RowType rowType, int[] fields) {
        List<DataType> types = new ArrayList<>();
        for (int f : fields) {
            types.add(rowType.type(f));
        }
        return forKeys(types);
    }

    public List<DataType> types() {
        return types;
    }

    public boolean isKeyMode() {
        return keyMode;
    }

    @Override
    public byte[] serialize(Object[] row) {
        Scratch scratch = SCRATCH.get();
        if (scratch.busy) {
            // Re-entered (a serializer of a field value calling this one): use a fresh buffer.
            ByteWriter out = new ByteWriter(64);
            codec.writeRow(out, row);
            return out.toByteArray();
        }
        scratch.busy = true;
        try {
            ByteWriter out = scratch.out;
            out.reset();
            codec.writeRow(out, row);
            return out.toByteArray();
        } finally {
            scratch.busy = false;
            if (scratch.out.capacity() > 1 << 20) {
                scratch.out = new ByteWriter(256); // do not keep a huge buffer per thread
            }
        }
    }

    @Override
    public Object[] deserialize(byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        Object[] row = codec.readRow(in);
        if (!in.atEnd()) {
            throw new StateException("row bytes have " + (bytes.length - in.position()) + " trailing bytes for "
                    + types);
        }
        return row;
    }

    /** Appends the row's bytes to {@code out}: the format is self-delimiting, so rows can follow one another. */
    public void serialize(Object[] row, ByteWriter out) {
        codec.writeRow(out, row);
    }

    /** Reads one row written by {@link #serialize(Object[], ByteWriter)}, leaving {@code in} right after it. */
    public Object[] deserialize(ByteReader in) {
        return codec.readRow(in);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowSerializer && ((RowSerializer) o).types.equals(types)
                && ((RowSerializer) o).keyMode == keyMode;
    }

    @Override
    public int hashCode() {
        return types.hashCode() * 2 + (keyMode ? 1 : 0);
    }

    @Override
    public String toString() {
        return "RowSerializer" + (keyMode ? "[keys]" : "") + types;
    }

    // ---------------------------------------------------------------------------------------------------------------

    private interface Codec {
        void write(ByteWriter out, Object value);

        Object read(ByteReader in);
    }

    private static Codec codecFor(DataType type, boolean keyMode) {
        switch (type.kind()) {
            case BOOLEAN:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeByte((Boolean) v ? 1 : 0);
                    }

                    public Object read(ByteReader in) {
                        return in.readByte() != 0;
                    }
                };
            case TINYINT:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeByte(((Number) v).byteValue());
                    }

                    public Object read(ByteReader in) {
                        return in.readByte();
                    }
                };
            case SMALLINT:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeShort(((Number) v).shortValue());
                    }

                    public Object read(ByteReader in) {
                        return in.readShort();
                    }
                };
            case INT:
            case DATE:
            case TIME:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeInt(((Number) v).intValue());
                    }

                    public Object read(ByteReader in) {
                        return in.readInt();
                    }
                };
            case BIGINT:
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeLong(((Number) v).longValue());
                    }

                    public Object read(ByteReader in) {
                        return in.readLong();
                    }
                };
            case FLOAT:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        float f = ((Number) v).floatValue();
                        if (keyMode && f == 0.0f) {
                            f = 0.0f;
                        }
                        out.writeInt(Float.floatToIntBits(f));
                    }

                    public Object read(ByteReader in) {
                        return Float.intBitsToFloat(in.readInt());
                    }
                };
            case DOUBLE:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        double d = ((Number) v).doubleValue();
                        if (keyMode && d == 0.0) {
                            d = 0.0;
                        }
                        out.writeLong(Double.doubleToLongBits(d));
                    }

                    public Object read(ByteReader in) {
                        return Double.longBitsToDouble(in.readLong());
                    }
                };
            case DECIMAL:
                return new DecimalCodec(type.scale(), keyMode);
            case CHAR:
            case VARCHAR:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeLengthPrefixed(((CharSequence) v).toString().getBytes(StandardCharsets.UTF_8));
                    }

                    public Object read(ByteReader in) {
                        return in.readUtf8();
                    }
                };
            case BINARY:
            case VARBINARY:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        out.writeLengthPrefixed((byte[]) v);
                    }

                    public Object read(ByteReader in) {
                        return in.readLengthPrefixed();
                    }
                };
            case ARRAY:
                return new ListCodec(codecFor(type.elementType(), keyMode), false);
            case MULTISET:
                return new ListCodec(codecFor(type.elementType(), keyMode), true);
            case MAP:
                return new MapCodec(codecFor(type.keyType(), keyMode), codecFor(type.valueType(), keyMode));
            case ROW:
                return new RowCodec(type.fieldTypes(), keyMode);
            case NULL:
                return new Codec() {
                    public void write(ByteWriter out, Object v) {
                        throw new IllegalArgumentException("a NULL-typed field holds " + v);
                    }

                    public Object read(ByteReader in) {
                        return null;
                    }
                };
            default:
                throw new IllegalArgumentException("no serializer for " + type);
        }
    }

    /** A row: null bitmap, then the non-null fields. */
    private static final class RowCodec implements Codec {
        private final List<DataType> types;
        private final Codec[] fields;

        RowCodec(List<DataType> types, boolean keyMode) {
            this.types = types;
            this.fields = new Codec[types.size()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = codecFor(types.get(i), keyMode);
            }
        }

        void writeRow(ByteWriter out, Object[] row) {
            if (row.length != fields.length) {
                throw new IllegalArgumentException(
                        "row has " + row.length + " fields, the serializer " + fields.length + " " + types);
            }
            int bitmap = out.reserve((fields.length + 7) >>> 3);
            for (int i = 0; i < fields.length; i++) {
                Object v = row[i];
                if (v == null || types.get(i).kind() == DataType.Kind.NULL) {
                    if (v != null) {
                        throw new IllegalArgumentException("field " + i + " is of type NULL but holds " + v);
                    }
                    out.setBit(bitmap, i);
                } else {
                    try {
                        fields[i].write(out, v);
                    } catch (ClassCastException e) {
                        throw new IllegalArgumentException("field " + i + " of type " + types.get(i) + " holds a "
                                + v.getClass().getName() + ": " + e.getMessage(), e);
                    }
                }
            }
        }

        Object[] readRow(ByteReader in) {
            int bitmap = in.skip((fields.length + 7) >>> 3);
            Object[] row = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                if (!in.isBitSet(bitmap, i)) {
                    row[i] = fields[i].read(in);
                }
            }
            return row;
        }

        @Override
        public void write(ByteWriter out, Object value) {
            writeRow(out, (Object[]) value);
        }

        @Override
        public Object read(ByteReader in) {
            return readRow(in);
        }
    }

    private static final class DecimalCodec implements Codec {
        private final int typeScale;
        private final boolean keyMode;

        DecimalCodec(int typeScale, boolean keyMode) {
            this.typeScale = typeScale;
            this.keyMode = keyMode;
        }

        @Override
        public void write(ByteWriter out, Object value) {
            BigDecimal d = (BigDecimal) value;
            if (keyMode) {
                d = d.stripTrailingZeros();
            }
            int scale = d.scale();
            out.writeVarInt((scale << 1) ^ (scale >> 31));
            out.writeLengthPrefixed(d.unscaledValue().toByteArray());
        }

        @Override
        public Object read(ByteReader in) {
            int zz = in.readVarInt();
            int scale = (zz >>> 1) ^ -(zz & 1);
            BigDecimal d = new BigDecimal(new BigInteger(in.readLengthPrefixed()), scale);
            if (keyMode && d.scale() < typeScale) {
                d = d.setScale(typeScale);
            }
            return d;
        }
    }

    /** ARRAY and MULTISET ({@code java.util.List}): count, element null bitmap, elements. */
    private static final class ListCodec implements Codec {
        private final Codec element;
        private final boolean sorted;

        ListCodec(Codec element, boolean sorted) {
            this.element = element;
            this.sorted = sorted;
        }

        @Override
        public void write(ByteWriter out, Object value) {
            List<?> list = (List<?>) value;
            int n = list.size();
            out.writeVarInt(n);
            int bitmap = out.reserve((n + 7) >>> 3);
            if (!sorted) {
                for (int i = 0; i < n; i++) {
                    Object e = list.get(i);
                    if (e == null) {
                        out.setBit(bitmap, i);
                    } else {
                        element.write(out, e);
                    }
                }
                return;
            }
            // MULTISET: NULLs first, then elements in the order of their bytes.
            List<byte[]> encoded = new ArrayList<>(n);
            int nulls = 0;
            for (Object e : list) {
                if (e == null) {
                    nulls++;
                } else {
                    ByteWriter w = new ByteWriter(32);
                    element.write(w, e);
                    encoded.add(w.toByteArray());
                }
            }
            encoded.sort(Arrays::compareUnsigned);
            for (int i = 0; i < nulls; i++) {
                out.setBit(bitmap, i);
            }
            for (byte[] b : encoded) {
                out.writeBytes(b);
            }
        }

        @Override
        public Object read(ByteReader in) {
            int n = in.readVarInt();
            int bitmap = in.skip((n + 7) >>> 3); // bounds n: null elements take a bit each
            List<Object> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(in.isBitSet(bitmap, i) ? null : element.read(in));
            }
            return list;
        }
    }

    /** MAP: count, then entries sorted by their bytes. */
    private static final class MapCodec implements Codec {
        private final Codec key;
        private final Codec value;

        MapCodec(Codec key, Codec value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public void write(ByteWriter out, Object v) {
            Map<?, ?> map = (Map<?, ?>) v;
            byte[][] entries = new byte[map.size()][];
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                ByteWriter w = new ByteWriter(32);
                int flags = (e.getKey() == null ? 1 : 0) | (e.getValue() == null ? 2 : 0);
                w.writeByte(flags);
                if (e.getKey() != null) {
                    key.write(w, e.getKey());
                }
                if (e.getValue() != null) {
                    value.write(w, e.getValue());
                }
                entries[i++] = w.toByteArray();
            }
            Arrays.sort(entries, Arrays::compareUnsigned);
            out.writeVarInt(entries.length);
            for (byte[] b : entries) {
                out.writeBytes(b);
            }
        }

        @Override
        public Object read(ByteReader in) {
            int n = in.readCount();
            Map<Object, Object> map = new LinkedHashMap<>(Math.max(4, n * 4 / 3 + 1));
            for (int i = 0; i < n; i++) {
                int flags = in.readByte();
                Object k = (flags & 1) != 0 ? null : key.read(in);
                Object v = (flags & 2) != 0 ? null : value.read(in);
                map.put(k, v);
            }
            return map;
        }
    }
}
