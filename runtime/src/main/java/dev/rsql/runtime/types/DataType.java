package dev.rsql.runtime.types;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A logical data type of the runtime. Immutable.
 *
 * <p>Values travel through the engine in their internal representation: BOOLEAN {@code Boolean},
 * TINYINT {@code Byte}, SMALLINT {@code Short}, INT {@code Integer}, BIGINT {@code Long}, FLOAT {@code Float},
 * DOUBLE {@code Double}, DECIMAL {@code BigDecimal}, CHAR/VARCHAR {@code String}, BINARY/VARBINARY
 * {@code byte[]}, DATE {@code Integer} days since the epoch, TIME {@code Integer} milliseconds of the day,
 * TIMESTAMP and TIMESTAMP_LTZ {@code Long} milliseconds since the epoch (TIMESTAMP is a wall-clock time read as
 * UTC), ARRAY and MULTISET {@code java.util.List}, MAP {@code java.util.Map}, ROW {@code Object[]}.
 */
public final class DataType {

    public enum Kind {
        BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, BINARY, VARBINARY,
        DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ARRAY, MULTISET, MAP, ROW, NULL;

        public boolean isNumeric() {
            return ordinal() >= TINYINT.ordinal() && ordinal() <= DECIMAL.ordinal();
        }

        public boolean isCharacter() {
            return this == CHAR || this == VARCHAR;
        }

        public boolean isBinary() {
            return this == BINARY || this == VARBINARY;
        }
    }

    /** Precision value meaning "no explicit length" (unbounded strings and byte arrays). */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    private final Kind kind;
    private final boolean nullable;
    private final int precision;
    private final int scale;
    private final List<DataType> children;
    private final List<String> fieldNames;

    private DataType(Kind kind, boolean nullable, int precision, int scale, List<DataType> children,
                     List<String> fieldNames) {
        this.kind = Objects.requireNonNull(kind);
        this.nullable = nullable;
        this.precision = precision;
        this.scale = scale;
        this.children = List.copyOf(children);
        this.fieldNames = List.copyOf(fieldNames);
    }

    public static DataType of(Kind kind) {
        return new DataType(kind, true, defaultPrecision(kind), 0, List.of(), List.of());
    }

    public static DataType varchar(int length) {
        return new DataType(Kind.VARCHAR, true, length, 0, List.of(), List.of());
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, true, precision, scale, List.of(), List.of());
    }

    public static DataType timestamp(int precision) {
        return new DataType(Kind.TIMESTAMP, true, precision, 0, List.of(), List.of());
    }

    public static DataType withPrecision(Kind kind, int precision, int scale) {
        return new DataType(kind, true, precision, scale, List.of(), List.of());
    }

    public static DataType array(DataType element) {
        return new DataType(Kind.ARRAY, true, 0, 0, List.of(element), List.of());
    }

    public static DataType multiset(DataType element) {
        return new DataType(Kind.MULTISET, true, 0, 0, List.of(element), List.of());
    }

    public static DataType map(DataType key, DataType value) {
        return new DataType(Kind.MAP, true, 0, 0, List.of(key, value), List.of());
    }

    public static DataType row(List<String> names, List<DataType> types) {
        if (names.size() != types.size()) {
            throw new IllegalArgumentException("ROW needs one name per field type");
        }
        return new DataType(Kind.ROW, true, 0, 0, types, names);
    }

    public static DataType string() {
        return varchar(UNBOUNDED);
    }

    private static int defaultPrecision(Kind kind) {
        switch (kind) {
            case VARCHAR:
            case VARBINARY:
                return UNBOUNDED;
            case CHAR:
            case BINARY:
                return 1;
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return 3;
            case DECIMAL:
                return 10;
            default:
                return 0;
        }
    }

    public DataType notNull() {
        return nullable ? new DataType(kind, false, precision, scale, children, fieldNames) : this;
    }

    public DataType nullable() {
        return nullable ? this : new DataType(kind, true, precision, scale, children, fieldNames);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isNullable() {
        return nullable;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    /** Element type of ARRAY or MULTISET. */
    public DataType elementType() {
        requireKind(Kind.ARRAY, Kind.MULTISET);
        return children.get(0);
    }

    public DataType keyType() {
        requireKind(Kind.MAP);
        return children.get(0);
    }

    public DataType valueType() {
        requireKind(Kind.MAP);
        return children.get(1);
    }

    /** Field types of a ROW. */
    public List<DataType> fieldTypes() {
        requireKind(Kind.ROW);
        return children;
    }

    public List<String> fieldNames() {
        requireKind(Kind.ROW);
        return fieldNames;
    }

    private void requireKind(Kind... kinds) {
        for (Kind k : kinds) {
            if (k == kind) {
                return;
            }
        }
        throw new IllegalStateException(this + " is not a " + List.of(kinds));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DataType)) {
            return false;
        }
        DataType that = (DataType) o;
        return kind == that.kind && nullable == that.nullable && precision == that.precision
                && scale == that.scale && children.equals(that.children) && fieldNames.equals(that.fieldNames);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, nullable, precision, scale, children, fieldNames);
    }

    /** SQL-like rendering, e.g. {@code ROW<id BIGINT, name STRING>}. */
    @Override
    public String toString() {
        String base;
        switch (kind) {
            case VARCHAR:
                base = precision == UNBOUNDED ? "STRING" : "VARCHAR(" + precision + ")";
                break;
            case VARBINARY:
                base = precision == UNBOUNDED ? "BYTES" : "VARBINARY(" + precision + ")";
                break;
            case CHAR:
            case BINARY:
                base = kind + "(" + precision + ")";
                break;
            case DECIMAL:
                base = "DECIMAL(" + precision + ", " + scale + ")";
                break;
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                base = kind + "(" + precision + ")";
                break;
            case ARRAY:
            case MULTISET:
                base = kind + "<" + children.get(0) + ">";
                break;
            case MAP:
                base = "MAP<" + children.get(0) + ", " + children.get(1) + ">";
                break;
            case ROW:
                StringBuilder sb = new StringBuilder("ROW<");
                for (int i = 0; i < children.size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    sb.append('`').append(fieldNames.get(i)).append("` ").append(children.get(i));
                }
                base = sb.append('>').toString();
                break;
            default:
                base = kind.name();
        }
        return nullable ? base : base + " NOT NULL";
    }

    /** Renders a list of field types, for messages. */
    public static String describe(List<String> names, List<DataType> types) {
        return java.util.stream.IntStream.range(0, names.size())
                .mapToObj(i -> names.get(i) + " " + types.get(i))
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
