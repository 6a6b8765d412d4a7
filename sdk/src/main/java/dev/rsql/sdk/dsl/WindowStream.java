package dev.rsql.sdk.dsl;

import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.WindowSpec;
import dev.rsql.runtime.types.DataType;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A keyed stream cut into windows: each aggregation emits one {@link Windowed} result per key and window when the
 * window closes (the watermark, or for processing time the clock, passes its end). The graph is the one of SQL's
 * {@code GROUP BY key, window_start, window_end} over a window table function; the results have the window's
 * {@code window_time} (end - 1 ms) as their event time, so windows can be cascaded.
 */
public final class WindowStream<K, T> {

    private final GroupedStream<K, T> grouped;
    private final Window window;

    WindowStream(GroupedStream<K, T> grouped, Window window) {
        this.grouped = grouped;
        this.window = window;
    }

    public RStream<Windowed<K, Long>> count() {
        return aggregate(GroupedStream.Aggregation.count());
    }

    public RStream<Windowed<K, Long>> sum(ToLongFunction<? super T> value) {
        return aggregate(GroupedStream.Aggregation.sum(grouped.source.mapping, grouped.keySize(), value));
    }

    public RStream<Windowed<K, Double>> sumDouble(ToDoubleFunction<? super T> value) {
        return aggregate(GroupedStream.Aggregation.sumDouble(grouped.source.mapping, grouped.keySize(), value));
    }

    public <V extends Comparable<? super V>> RStream<Windowed<K, V>> min(Function<? super T, V> value, Class<V> type) {
        return aggregate(GroupedStream.Aggregation.minMax(grouped.source.mapping, grouped.keySize(), value, type,
                false));
    }

    public <V extends Comparable<? super V>> RStream<Windowed<K, V>> max(Function<? super T, V> value, Class<V> type) {
        return aggregate(GroupedStream.Aggregation.minMax(grouped.source.mapping, grouped.keySize(), value, type,
                true));
    }

    /** A user aggregation per key and window; session windows need its {@link Aggregator#merge}. */
    public <A, V> RStream<Windowed<K, V>> aggregate(Aggregator<? super T, A, V> aggregator, Class<A> accumulatorType,
                                                    Class<V> resultType) {
        return aggregate(GroupedStream.Aggregation.user(grouped.source.mapping, grouped.keySize(), aggregator,
                accumulatorType, resultType));
    }

    private <V> RStream<Windowed<K, V>> aggregate(GroupedStream.Aggregation<V> aggregation) {
        if (window.isSession() && !aggregation.merges) {
            throw new IllegalArgumentException("a session window merges accumulators: " + aggregation.name
                    + " must implement Aggregator.merge");
        }
        GraphBuilder.Stream input = aggregation.prepare(grouped.keyed);
        int valueField = input.rowType().size() - 1;
        int width = input.rowType().size();
        WindowSpec spec = window.spec(window.isEventTime() ? grouped.timeField : 0);
        RowMapping<Windowed<K, V>> out = CompositeMapping.windowed(grouped.keyMapping, aggregation.result);
        int[] keys = grouped.keyFields();
        GraphBuilder.Stream s = input.window(spec).exchange(keys).windowAggregate(keys, width, width + 1,
                window.isEventTime(), window.isSession(), List.of(aggregation.call(valueField)), EmitSpec.ON_WATERMARK,
                RStream.append(out.rowType(), "window_time", DataType.timestamp(3)), null);
        return new RStream<>(grouped.source.builder, s, out, window.isEventTime() ? out.size() : -1,
                grouped.source.watermarkDelay);
    }
}
