package dev.rsql.sdk.dsl;

import dev.rsql.runtime.graph.CorrelateFunction;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A stream of typed elements: the output of one node of the job's operator graph. Its rows are the element's
 * columns ({@link RowMapping}), then, once {@link #assignTimestamps} gave the stream event time, a {@code rowtime}
 * column; every operation adds the same graph nodes the SQL planner builds (a lambda runs inside a calc or correlate
 * node), so state, checkpoints, exactly-once and the shuffle are the engine's. Elements of a stream read from SQL
 * ({@link StreamBuilder#sqlQuery}) may be updates and deletes: operations keep each row's change kind, and a sink
 * receives it.
 *
 * <p>Functions passed here are called by every task of the job, from several threads: keep them stateless. They are
 * not serialized: each process running the job builds the graph from the same code.
 */
public final class RStream<T> {

    /** Name of the event-time column. */
    static final String ROWTIME = "rowtime";

    final StreamBuilder builder;
    final GraphBuilder.Stream stream;
    final RowMapping<T> mapping;
    /** The event-time column ({@code mapping.size()}), or -1. */
    final int timeField;
    /** How far watermarks stay behind the largest event time seen, in ms. */
    final long watermarkDelay;

    RStream(StreamBuilder builder, GraphBuilder.Stream stream, RowMapping<T> mapping, int timeField,
            long watermarkDelay) {
        this.builder = builder;
        this.stream = stream;
        this.mapping = mapping;
        this.timeField = timeField;
        this.watermarkDelay = watermarkDelay;
    }

    /** The columns of the stream's rows (the element's, then {@code rowtime} with event time). */
    public RowType rowType() {
        return stream.rowType();
    }

    /** True once the stream has event time and watermarks. */
    public boolean hasEventTime() {
        return timeField >= 0;
    }

    /**
     * The elements {@code predicate} accepts. Over an update stream, as a SQL filter does, the halves of an update are
     * judged on their own: an update leaving the filter becomes a delete, one entering it an insert.
     */
    public RStream<T> filter(Predicate<? super T> predicate) {
        GraphBuilder.Stream s = stream.calc(stream.rowType(), () -> in -> predicate.test(mapping.read(in, 0)) ? in : null,
                "filter " + mapping, stream.node().producesUpdates(), new int[0]);
        return with(s, mapping);
    }

    /** Each element turned into one of {@code type}; event time carries over. */
    public <R> RStream<R> map(Function<? super T, ? extends R> mapper, Class<R> type) {
        RowMapping<R> out = RowMapping.of(type);
        int n = out.size();
        int time = timeField;
        GraphBuilder.Stream s = stream.calc(withTime(out.rowType()), () -> in -> {
            Object[] row = new Object[time < 0 ? n : n + 1];
            out.write(mapper.apply(mapping.read(in, 0)), row, 0);
            if (time >= 0) {
                row[n] = in[time];
            }
            return row;
        }, "map " + mapping + " to " + out);
        return with(s, out);
    }

    /** Each element turned into zero or more of {@code type} (a correlate node, as a table function in SQL). */
    public <R> RStream<R> flatMap(Function<? super T, ? extends Iterable<? extends R>> mapper, Class<R> type) {
        RowMapping<R> out = RowMapping.of(type);
        RowType in = stream.rowType();
        RowType.Builder joined = RowType.builder();
        for (int i = 0; i < in.size(); i++) {
            joined.field("$in$" + in.name(i), in.type(i));
        }
        copyFields(out.rowType(), joined);
        int n = out.size();
        int inputs = in.size();
        int time = timeField;
        GraphBuilder.Stream s = stream.correlate(joined.build(), () -> new CorrelateFunction() {
            @Override
            public void apply(Object[] input, Consumer<Object> sink) {
                for (R r : mapper.apply(mapping.read(input, 0))) {
                    sink.accept(r);
                }
            }
        }, value -> out.toRow(cast(value)), false, "flatMap " + mapping + " to " + out);
        s = s.calc(withTime(out.rowType()), () -> row -> {
            Object[] projected = new Object[time < 0 ? n : n + 1];
            System.arraycopy(row, inputs, projected, 0, n);
            if (time >= 0) {
                projected[n] = row[time];
            }
            return projected;
        }, "elements of flatMap to " + out);
        return with(s, out);
    }

    /**
     * Event time: {@code timestamp} (epoch milliseconds) of each element, with watermarks {@code maxOutOfOrderness}
     * behind the largest timestamp seen, so elements that late still fall into their windows. Call it on a stream read
     * from a source, before {@link #keyBy}.
     */
    public RStream<T> assignTimestamps(ToLongFunction<? super T> timestamp, Duration maxOutOfOrderness) {
        int n = mapping.size();
        long delay = maxOutOfOrderness.toMillis();
        RowType timed = withTime(mapping.rowType(), true);
        RowType.Builder withWatermark = RowType.builder();
        copyFields(timed, withWatermark);
        withWatermark.field("$watermark", DataType.timestamp(3));
        GraphBuilder.Stream s = stream.calc(withWatermark.build(), () -> in -> {
            Object[] row = new Object[n + 2];
            System.arraycopy(in, 0, row, 0, n);
            long t = timestamp.applyAsLong(mapping.read(in, 0));
            row[n] = t;
            row[n + 1] = t - delay;
            return row;
        }, "timestamps of " + mapping + ", watermark delay " + delay + " ms");
        s = s.watermark(n, n + 1).calc(timed, () -> in -> {
            Object[] row = new Object[n + 1];
            System.arraycopy(in, 0, row, 0, n + 1);
            return row;
        }, "drop the watermark column");
        return new RStream<>(builder, s, mapping, n, delay);
    }

    /** Groups by key: the elements of one key meet in one task (an exchange by the key columns). */
    public <K> GroupedStream<K, T> keyBy(Function<? super T, ? extends K> key, Class<K> keyType) {
        return GroupedStream.of(this, key, RowMapping.of(keyType, "key"));
    }

    /** This stream's and the others' elements (same type; all with event time, or none). */
    @SafeVarargs
    public final RStream<T> union(RStream<T>... others) {
        List<GraphBuilder.Stream> all = new ArrayList<>();
        all.add(stream);
        long delay = watermarkDelay;
        for (RStream<T> o : others) {
            if (o.timeField != timeField || !o.stream.rowType().equals(stream.rowType())) {
                throw new IllegalArgumentException("union of streams with different columns: " + stream.rowType()
                        + " and " + o.stream.rowType() + " (give all of them event time, or none)");
            }
            all.add(o.stream);
            delay = Math.max(delay, o.watermarkDelay);
        }
        return new RStream<>(builder, builder.graph.union(all), mapping, timeField, delay);
    }

    /**
     * Writes the elements to a table of a connector: {@code options} as in a WITH clause ({@code connector}, and e.g.
     * {@code topic} and {@code format} = {@code json}); the table's columns are the element's.
     */
    public void to(String table, Map<String, String> options) {
        to(table, options, List.of());
    }

    /**
     * As {@link #to(String, Map)}, into a table with a primary key (columns of the element): an upsert sink such as
     * {@code jdbc} or {@code upsert-kafka} then writes an update stream as upserts and deletes by that key.
     */
    public void to(String table, Map<String, String> options, List<String> primaryKey) {
        TableDescriptor descriptor = Tables.descriptor(table, mapping.rowType(), options, primaryKey);
        if (primaryKey.isEmpty() && stream.node().producesUpdates() && !builder.writesChangelog(descriptor)) {
            throw new IllegalArgumentException("table " + table + " (connector " + descriptor.connector() + ") takes "
                    + "inserts only, but the stream has updates: give it a primary key, or a format that writes a "
                    + "changelog");
        }
        GraphBuilder.Stream s = stream;
        if (stream.rowType().size() > mapping.size()) {   // the event time, or a processing-time window's time
            int n = mapping.size();
            s = s.calc(mapping.rowType(), () -> in -> {
                Object[] row = new Object[n];
                System.arraycopy(in, 0, row, 0, n);
                return row;
            }, "columns of " + mapping);
        }
        if (!primaryKey.isEmpty() && s.node().producesUpdates()) {
            // as SQL does for a sink keyed otherwise than the query's updates: the last row per sink key is written
            int[] key = descriptor.schema().primaryKeyIndices();
            s = s.exchange(key).upsertMaterialize(key);
        }
        s.sinkTo(descriptor);
    }

    /** Writes each element as the payload {@code serializer} makes of it (one STRING column, {@code raw} format). */
    public void to(String table, Map<String, String> options, Function<? super T, String> serializer) {
        map(serializer, String.class).to(table, Tables.rawFormat(table, options));
    }

    /** RocketMQ Streams' name for {@link #to}. */
    public void sink(String table, Map<String, String> options) {
        to(table, options);
    }

    /** Prints each element (with its change kind, e.g. {@code +I[...]}) to standard output. */
    public void print(String identifier) {
        to("print_" + identifier, Map.of("connector", "print", "print-identifier", identifier));
    }

    <R> RStream<R> with(GraphBuilder.Stream s, RowMapping<R> m) {
        return new RStream<>(builder, s, m, timeField < 0 ? -1 : m.size(), watermarkDelay);
    }

    private RowType withTime(RowType columns) {
        return withTime(columns, timeField >= 0);
    }

    static RowType withTime(RowType columns, boolean time) {
        return time ? append(columns, ROWTIME, DataType.timestamp(3)) : columns;
    }

    static RowType append(RowType columns, String name, DataType type) {
        RowType.Builder b = RowType.builder();
        copyFields(columns, b);
        return b.field(name, type).build();
    }

    static void copyFields(RowType from, RowType.Builder to) {
        for (int i = 0; i < from.size(); i++) {
            to.field(from.name(i), from.type(i));
        }
    }

    @SuppressWarnings("unchecked")
    static <X> X cast(Object o) {
        return (X) o;
    }
}
