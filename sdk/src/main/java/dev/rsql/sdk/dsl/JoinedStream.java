package dev.rsql.sdk.dsl;

import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.graph.JoinNode;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;

/**
 * An inner or left join of two keyed streams with event time: elements of equal keys in the same window ({@link #window}, a
 * window join) or whose times are close ({@link #between}, an interval join), as the runtime's window and interval
 * join operators do for SQL. Both sides travel as tagged rows through one exchange by the key; matched pairs are
 * emitted once final, never retracted. In a left join ({@link GroupedStream#leftJoin}) a left element that found no
 * match is joined with {@code null} once no right element can match it any more (its window closed, or the watermark
 * passed its interval).
 */
public final class JoinedStream<K, T, U> {

    private final GroupedStream<K, T> left;
    private final GroupedStream<K, U> right;
    private final JoinNode.Type type;
    private final Window window;
    private final long lower;
    private final long upper;

    JoinedStream(GroupedStream<K, T> left, GroupedStream<K, U> right, JoinNode.Type type) {
        this(left, right, type, null, 0, 0);
    }

    private JoinedStream(GroupedStream<K, T> left, GroupedStream<K, U> right, JoinNode.Type type, Window window,
                         long lower, long upper) {
        this.left = left;
        this.right = right;
        this.type = type;
        this.window = window;
        this.lower = lower;
        this.upper = upper;
    }

    /** Pairs in the same event-time window (tumbling or hopping), emitted when the window closes. */
    public JoinedStream<K, T, U> window(Window window) {
        if (!window.isEventTime() || window.isSession()) {
            throw new IllegalArgumentException("a window join needs tumbling or hopping event-time windows, not "
                    + window);
        }
        return new JoinedStream<>(left, right, type, window, 0, 0);
    }

    /** Pairs whose right element's time is within {@code [left time + lower, left time + upper]}. */
    public JoinedStream<K, T, U> between(Duration lower, Duration upper) {
        if (lower.compareTo(upper) > 0) {
            throw new IllegalArgumentException("interval join: lower bound " + lower + " above upper bound " + upper);
        }
        return new JoinedStream<>(left, right, type, null, lower.toMillis(), upper.toMillis());
    }

    /** Each matching pair turned into one element of {@code resultType} (in a left join, unmatched: with null). */
    public <R> RStream<R> apply(BiFunction<? super T, ? super U, ? extends R> joiner, Class<R> resultType) {
        if (left.timeField < 0 || right.timeField < 0) {
            throw new IllegalArgumentException("a join of streams needs event time on both: call assignTimestamps(...) "
                    + "before keyBy");
        }
        if (left.keyed.node().producesUpdates() || right.keyed.node().producesUpdates()) {
            throw new IllegalArgumentException("a window or interval join reads inserts only, not an update stream (a "
                    + "query's result): join in the SQL query");
        }
        if (!left.keyMapping.rowType().types().equals(right.keyMapping.rowType().types())) {
            throw new IllegalArgumentException("the two sides of a join have different keys: "
                    + left.keyMapping.rowType() + " and " + right.keyMapping.rowType());
        }
        boolean windowed = window != null;
        GraphBuilder.Stream l = windowed ? left.keyed.window(window.spec(left.timeField)) : left.keyed;
        GraphBuilder.Stream r = windowed ? right.keyed.window(window.spec(right.timeField)) : right.keyed;
        int k = left.keySize();
        // the keys: the element keys, and for a window join window_start and window_end (the last three columns of a
        // side are window_start, window_end, window_time)
        int[] leftKeys = keys(k, windowed, l.rowType().size());
        int[] rightKeys = keys(k, windowed, r.rowType().size());
        RowType lt = l.rowType();
        RowType rt = r.rowType();
        RowType.Builder tagged = RowType.builder().field("$side", DataType.of(DataType.Kind.INT));
        for (int i = 0; i < leftKeys.length; i++) {
            tagged.field("$key" + i, lt.type(leftKeys[i]).nullable());
        }
        RowType.Builder joined = RowType.builder();
        for (int i = 0; i < lt.size(); i++) {
            tagged.field("$left$" + lt.name(i), lt.type(i).nullable());
            joined.field("$left$" + lt.name(i), lt.type(i));
        }
        for (int i = 0; i < rt.size(); i++) {
            tagged.field("$right$" + rt.name(i), rt.type(i).nullable());
            joined.field("$right$" + rt.name(i), rt.type(i));
        }
        RowType taggedType = tagged.build();
        GraphBuilder.Stream sides = left.source.builder.graph.union(List.of(
                tag(l, 0, leftKeys, taggedType, 1 + leftKeys.length),
                tag(r, 1, rightKeys, taggedType, 1 + leftKeys.length + lt.size()))).exchange(range(1, leftKeys.length));
        String description = type.name().toLowerCase() + " " + (windowed ? "window join " + window : "interval join [" + lower + " ms, " + upper
                + " ms]") + " of " + left.source.mapping + " and " + right.source.mapping + " by " + left.keyMapping;
        GraphBuilder.Stream pairs = windowed
                ? sides.windowJoin(type, leftKeys.length, lt, rt, joined.build(), null, description,
                        lt.size() - 2, rt.size() - 2)
                : sides.intervalJoin(type, leftKeys.length, lt, rt, joined.build(), null, description,
                        true, left.timeField, right.timeField, -upper, -lower);
        RowMapping<R> out = RowMapping.of(resultType);
        int n = out.size();
        int leftWidth = lt.size();
        int leftTime = left.timeField;
        RowMapping<T> lm = left.source.mapping;
        RowMapping<U> rm = right.source.mapping;
        GraphBuilder.Stream s = pairs.calc(RStream.withTime(out.rowType(), !windowed), () -> row -> {
            Object[] o = new Object[windowed ? n : n + 1];
            // a right side padded with NULLs (no match) has no key
            U matched = row[leftWidth] == null ? null : rm.read(row, leftWidth + k);
            out.write(joiner.apply(lm.read(row, k), matched), o, 0);
            if (!windowed) {
                o[n] = row[leftTime];
            }
            return o;
        }, "join " + lm + " and " + rm + " to " + out);
        return new RStream<>(left.source.builder, s, out, windowed ? -1 : n,
                Math.max(left.source.watermarkDelay, right.source.watermarkDelay));
    }

    private static int[] keys(int k, boolean windowed, int width) {
        int[] keys = new int[windowed ? k + 2 : k];
        for (int i = 0; i < k; i++) {
            keys[i] = i;
        }
        if (windowed) {
            keys[k] = width - 3;
            keys[k + 1] = width - 2;
        }
        return keys;
    }

    private static int[] range(int from, int count) {
        int[] r = new int[count];
        for (int i = 0; i < count; i++) {
            r[i] = from + i;
        }
        return r;
    }

    /** One side as tagged rows: its tag, its key fields, then its fields at {@code offset}, the other side NULL. */
    private static GraphBuilder.Stream tag(GraphBuilder.Stream side, int tag, int[] keys, RowType taggedType,
                                           int offset) {
        int width = side.rowType().size();
        int total = taggedType.size();
        return side.calc(taggedType, () -> in -> {
            Object[] out = new Object[total];
            out[0] = tag;
            for (int i = 0; i < keys.length; i++) {
                out[1 + i] = in[keys[i]];
            }
            System.arraycopy(in, 0, out, offset, width);
            return out;
        }, (tag == 0 ? "left" : "right") + " side of a join, tagged");
    }
}
