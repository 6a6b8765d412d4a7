package dev.rsql.sdk.dsl;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.aggregate.AggregateFunction;
import dev.rsql.runtime.aggregate.CountFunction;
import dev.rsql.runtime.aggregate.MinMaxFunction;
import dev.rsql.runtime.aggregate.SumFunction;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A stream grouped by key ({@link RStream#keyBy}): aggregations per key, over windows ({@link #window}) or over the
 * whole stream (then the result is an update stream: each new element of a key retracts the key's previous result,
 * -U/+U, as a GROUP BY in SQL), and joins with another stream of the same key. Rows: the key's columns, the element's,
 * then the event time when there is one.
 */
public final class GroupedStream<K, T> {

    final RStream<T> source;
    /** The rows with their key in front, before the exchange. */
    final GraphBuilder.Stream keyed;
    final RowMapping<K> keyMapping;
    /** The event-time column in {@link #keyed}, or -1. */
    final int timeField;

    private GroupedStream(RStream<T> source, GraphBuilder.Stream keyed, RowMapping<K> keyMapping, int timeField) {
        this.source = source;
        this.keyed = keyed;
        this.keyMapping = keyMapping;
        this.timeField = timeField;
    }

    static <K, T> GroupedStream<K, T> of(RStream<T> source, Function<? super T, ? extends K> key,
                                         RowMapping<K> keyMapping) {
        RowType in = source.stream.rowType();
        RowType.Builder b = RowType.builder();
        RStream.copyFields(keyMapping.rowType(), b);
        RStream.copyFields(in, b);
        int k = keyMapping.size();
        int width = in.size();
        RowMapping<T> mapping = source.mapping;
        GraphBuilder.Stream keyed = source.stream.calc(b.build(), () -> row -> {
            Object[] out = new Object[k + width];
            keyMapping.write(key.apply(mapping.read(row, 0)), out, 0);
            System.arraycopy(row, 0, out, k, width);
            return out;
        }, "key " + mapping + " by " + keyMapping);
        return new GroupedStream<>(source, keyed, keyMapping, source.timeField < 0 ? -1 : k + source.timeField);
    }

    int keySize() {
        return keyMapping.size();
    }

    int[] keyFields() {
        int[] keys = new int[keySize()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i;
        }
        return keys;
    }

    /** Aggregations per key and window. */
    public WindowStream<K, T> window(Window window) {
        if (window.isEventTime() && timeField < 0) {
            throw new IllegalArgumentException("an event-time " + window + " window needs event time: call "
                    + "assignTimestamps(...) on the stream before keyBy, or use a processing-time window");
        }
        return new WindowStream<>(this, window);
    }

    /** The number of elements per key, updated with each element. */
    public RStream<KeyValue<K, Long>> count() {
        return aggregate(Aggregation.count());
    }

    /** The sum of a long value per key. */
    public RStream<KeyValue<K, Long>> sum(ToLongFunction<? super T> value) {
        return aggregate(Aggregation.sum(source.mapping, keySize(), value));
    }

    /** The sum of a double value per key. */
    public RStream<KeyValue<K, Double>> sumDouble(ToDoubleFunction<? super T> value) {
        return aggregate(Aggregation.sumDouble(source.mapping, keySize(), value));
    }

    /** The smallest value per key. */
    public <V extends Comparable<? super V>> RStream<KeyValue<K, V>> min(Function<? super T, V> value, Class<V> type) {
        return aggregate(Aggregation.minMax(source.mapping, keySize(), value, type, false));
    }

    /** The largest value per key. */
    public <V extends Comparable<? super V>> RStream<KeyValue<K, V>> max(Function<? super T, V> value, Class<V> type) {
        return aggregate(Aggregation.minMax(source.mapping, keySize(), value, type, true));
    }

    /** A user aggregation per key; the accumulator and result types are mapped to columns like elements. */
    public <A, V> RStream<KeyValue<K, V>> aggregate(Aggregator<? super T, A, V> aggregator, Class<A> accumulatorType,
                                                    Class<V> resultType) {
        return aggregate(Aggregation.user(source.mapping, keySize(), aggregator, accumulatorType, resultType));
    }

    /** The element of each key without it: the stream as it was before {@link RStream#keyBy}, now partitioned. */
    public RStream<T> toRStream() {
        int k = keySize();
        RowType in = source.stream.rowType();
        int width = in.size();
        GraphBuilder.Stream s = exchanged().calc(in, () -> row -> {
            Object[] out = new Object[width];
            System.arraycopy(row, k, out, 0, width);
            return out;
        }, "drop the key " + keyMapping);
        return source.with(s, source.mapping);
    }

    /** A join with another stream of the same key type: {@link JoinedStream#window} or {@link JoinedStream#between}. */
    public <U> JoinedStream<K, T, U> join(GroupedStream<K, U> other) {
        return new JoinedStream<>(this, other, JoinNode.Type.INNER);
    }

    /** As {@link #join}, keeping the elements of this stream that find no match (joined with null). */
    public <U> JoinedStream<K, T, U> leftJoin(GroupedStream<K, U> other) {
        return new JoinedStream<>(this, other, JoinNode.Type.LEFT);
    }

    GraphBuilder.Stream exchanged() {
        return keyed.exchange(keyFields());
    }

    private <V> RStream<KeyValue<K, V>> aggregate(Aggregation<V> aggregation) {
        if (keyed.node().producesUpdates()) {
            throw new IllegalArgumentException("aggregating an update stream (a SQL query's result) is not supported by"
                    + " the DSL: aggregate it in the SQL query");
        }
        GraphBuilder.Stream input = aggregation.prepare(keyed);
        RowMapping<KeyValue<K, V>> out = CompositeMapping.keyValue(keyMapping, aggregation.result);
        GraphBuilder.Stream s = input.exchange(keyFields()).groupAggregate(keyFields(),
                List.of(aggregation.call(input.rowType().size() - 1)), out.rowType(), 0, true);
        return new RStream<>(source.builder, s, out, -1, 0);
    }

    /**
     * One aggregation: the runtime function, the column holding its result, and the value column it reads (appended
     * to the keyed rows by a calc), if any.
     */
    static final class Aggregation<V> {
        final String name;
        final RowMapping<V> result;
        /** The value an element adds (as an internal value), or null when the function reads the whole row. */
        final Function<Object[], Object> value;
        final DataType valueType;
        /** The function, given the index of the value column. */
        final IntFunction<AggregateFunction> function;
        final boolean merges;

        private Aggregation(String name, RowMapping<V> result, Function<Object[], Object> value, DataType valueType,
                            IntFunction<AggregateFunction> function, boolean merges) {
            this.name = name;
            this.result = result;
            this.value = value;
            this.valueType = valueType;
            this.function = function;
            this.merges = merges;
        }

        static Aggregation<Long> count() {
            return new Aggregation<>("COUNT(*)", new AtomicMapping<>("count", FieldType.of(Long.class)), null, null,
                    v -> new CountFunction(-1), true);
        }

        static <T> Aggregation<Long> sum(RowMapping<T> mapping, int offset, ToLongFunction<? super T> value) {
            DataType bigint = DataType.of(DataType.Kind.BIGINT);
            return new Aggregation<>("SUM", new AtomicMapping<>("sum", FieldType.of(Long.class)),
                    row -> value.applyAsLong(mapping.read(row, offset)), bigint,
                    v -> SumFunction.sum(v, bigint, bigint), true);
        }

        static <T> Aggregation<Double> sumDouble(RowMapping<T> mapping, int offset, ToDoubleFunction<? super T> value) {
            DataType dbl = DataType.of(DataType.Kind.DOUBLE);
            return new Aggregation<>("SUM", new AtomicMapping<>("sum", FieldType.of(Double.class)),
                    row -> value.applyAsDouble(mapping.read(row, offset)), dbl, v -> SumFunction.sum(v, dbl, dbl), true);
        }

        static <T, V> Aggregation<V> minMax(RowMapping<T> mapping, int offset, Function<? super T, V> value,
                                            Class<V> type, boolean max) {
            FieldType field = FieldType.of(type);
            if (field == null) {
                throw new IllegalArgumentException((max ? "max" : "min") + " needs a value of one column (a number, "
                        + "string or time), not " + type.getName());
            }
            String name = max ? "MAX" : "MIN";
            return new Aggregation<>(name, new AtomicMapping<>(name.toLowerCase(), field),
                    row -> field.toInternal().apply(value.apply(mapping.read(row, offset))), field.dataType(),
                    v -> new MinMaxFunction(v, field.dataType(), max, false), true);
        }

        static <T, A, V> Aggregation<V> user(RowMapping<T> mapping, int offset, Aggregator<? super T, A, V> aggregator,
                                             Class<A> accumulatorType, Class<V> resultType) {
            RowMapping<A> acc = RowMapping.of(accumulatorType);
            RowMapping<V> result = new AtomicMapping<>("value", ReflectiveMapping.fieldType(resultType));
            Aggregator<T, A, V> a = cast(aggregator);
            return new Aggregation<>("AGGREGATE(" + acc + ")", result, null, null,
                    v -> new AccumulatorFunction<>(a, mapping, offset, acc, result), aggregator.canMerge());
        }

        @SuppressWarnings("unchecked")
        private static <X> X cast(Object o) {
            return (X) o;
        }

        /** The keyed rows with the value column appended, when the function reads one. */
        GraphBuilder.Stream prepare(GraphBuilder.Stream keyed) {
            if (value == null) {
                return keyed;
            }
            RowType in = keyed.rowType();
            RowType.Builder b = RowType.builder();
            RStream.copyFields(in, b);
            b.field("$value", valueType);
            int width = in.size();
            return keyed.calc(b.build(), () -> row -> {
                Object[] out = new Object[width + 1];
                System.arraycopy(row, 0, out, 0, width);
                out[width] = value.apply(row);
                return out;
            }, "value of " + name);
        }

        AggregateCall call(int valueField) {
            return new AggregateCall(name, () -> function.apply(valueField));
        }
    }
}
