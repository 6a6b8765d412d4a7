package dev.rsql.sdk.dsl;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.function.Function;

/** An element made of parts laid out one after the other: a key's columns, then a value's, ... */
final class CompositeMapping<T> implements RowMapping<T> {

    private final List<RowMapping<Object>> parts;
    private final Function<T, Object[]> split;
    private final Function<Object[], T> assemble;
    private final RowType rowType;
    /** For descriptions, which name graph nodes: the same in every process, e.g. {@code KeyValue<String, Long>}. */
    private final String name;

    @SuppressWarnings("unchecked")
    CompositeMapping(String type, List<? extends RowMapping<?>> parts, Function<T, Object[]> split,
                     Function<Object[], T> assemble) {
        this.name = type + "<" + parts.subList(0, 2).stream().map(Object::toString)
                .collect(java.util.stream.Collectors.joining(", ")) + ">";
        this.parts = (List<RowMapping<Object>>) List.copyOf(parts);
        this.split = split;
        this.assemble = assemble;
        RowType.Builder b = RowType.builder();
        for (RowMapping<?> p : parts) {
            RowType t = p.rowType();
            for (int i = 0; i < t.size(); i++) {
                b.field(t.name(i), t.type(i));
            }
        }
        this.rowType = b.build();
    }

    static <K, V> RowMapping<KeyValue<K, V>> keyValue(RowMapping<K> key, RowMapping<V> value) {
        return new CompositeMapping<>("KeyValue", List.of(key, value), kv -> new Object[]{kv.key(), kv.value()},
                p -> new KeyValue<>(cast(p[0]), cast(p[1])));
    }

    static <K, V> RowMapping<Windowed<K, V>> windowed(RowMapping<K> key, RowMapping<V> value) {
        return new CompositeMapping<>("Windowed", List.of(key, value, new AtomicMapping<Long>("window_start", FieldType.EPOCH_MILLIS),
                new AtomicMapping<Long>("window_end", FieldType.EPOCH_MILLIS)),
                w -> new Object[]{w.key(), w.value(), w.windowStart(), w.windowEnd()},
                p -> new Windowed<>(cast(p[0]), cast(p[1]), (Long) p[2], (Long) p[3]));
    }

    @SuppressWarnings("unchecked")
    private static <X> X cast(Object o) {
        return (X) o;
    }

    @Override
    public RowType rowType() {
        return rowType;
    }

    @Override
    public void write(T value, Object[] row, int offset) {
        Object[] values = split.apply(value);
        for (int i = 0; i < parts.size(); i++) {
            parts.get(i).write(values[i], row, offset);
            offset += parts.get(i).size();
        }
    }

    @Override
    public T read(Object[] row, int offset) {
        Object[] values = new Object[parts.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = parts.get(i).read(row, offset);
            offset += parts.get(i).size();
        }
        return assemble.apply(values);
    }

    @Override
    public String toString() {
        return name;
    }
}
