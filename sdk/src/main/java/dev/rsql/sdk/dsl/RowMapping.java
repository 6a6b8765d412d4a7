package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.RowType;

/**
 * How elements of a Java type travel through the engine: as a run of row fields of a {@link RowType} (a record's
 * components or a POJO's fields, one column each; a single column for a String, a number, a time...), so that shuffles,
 * state and checkpoints use the engine's own serializers and SQL sees the fields as columns. Instances are stateless
 * and shared by all tasks.
 */
public interface RowMapping<T> {

    /** The columns, in row order. */
    RowType rowType();

    /** Writes {@code value}'s fields, as internal values, into {@code row[offset ...]}. */
    void write(T value, Object[] row, int offset);

    /** The element held in {@code row[offset ...]}. */
    T read(Object[] row, int offset);

    default int size() {
        return rowType().size();
    }

    /** A new row holding {@code value}. */
    default Object[] toRow(T value) {
        Object[] row = new Object[size()];
        write(value, row, 0);
        return row;
    }

    /**
     * The mapping of a Java type: a single column named {@code value} for a String, number, boolean, decimal, byte
     * array, enum or time ({@code Instant} and {@code LocalDateTime} are TIMESTAMP(3) in UTC, {@code LocalDate} a DATE);
     * otherwise the components of a record, or the non-static fields of a class with a no-argument constructor.
     */
    static <T> RowMapping<T> of(Class<T> type) {
        return of(type, "value");
    }

    /** As {@link #of(Class)}, a single column named {@code column}. */
    static <T> RowMapping<T> of(Class<T> type, String column) {
        FieldType field = FieldType.of(type);
        return field != null ? new AtomicMapping<>(column, field) : ReflectiveMapping.of(type);
    }
}
