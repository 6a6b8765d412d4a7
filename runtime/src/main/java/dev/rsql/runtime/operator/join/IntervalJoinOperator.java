package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.IntervalJoinNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs an {@link IntervalJoinNode}. Each side's rows are stored one state entry per row, under the join key and a
 * namespace of (row time, sequence), with a flag telling whether the row has been joined. A row arriving on one side
 * scans the other side's rows of its key in time order up to the end of its range and emits each pair that matches.
 * It is stored only if rows of the other side that are still to come can match it, i.e. while the operator's time
 * (the watermark, or the clock) is before the end of its range; a timer at that end removes it, emitting it padded
 * with NULLs if its side is outer and it never matched. An outer row that cannot wait is padded at once.
 */
public final class IntervalJoinOperator implements Operator {

    private static final int MATCHED = 0;

    private final IntervalJoinNode node;
    private final Output output;
    private final TaggedRows rows;
    private final boolean eventTime;
    private final long lower;
    private final long upper;
    private KeyedValueState<Object[]> lefts;
    private KeyedValueState<Object[]> rights;
    private TimerService timers;
    private OperatorContext context;
    private long watermark = Long.MIN_VALUE;
    /** Rows whose whole range was behind the watermark on arrival: joined with what is stored, but not kept. */
    private long lateRows;

    public IntervalJoinOperator(IntervalJoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.rows = new TaggedRows(node);
        this.eventTime = node.eventTime();
        this.lower = node.lowerBound();
        this.upper = node.upperBound();
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        this.context = context;
        rows.open(context);
        lefts = context.stateBackend().valueState(node.id(), "left", stored(node.leftType()));
        rights = context.stateBackend().valueState(node.id(), "right", stored(node.rightType()));
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
        requestNextProcessingTime();
    }

    /** A stored row: the matched flag, then the side's fields. */
    private static RowSerializer stored(RowType side) {
        List<DataType> types = new ArrayList<>();
        types.add(DataType.of(DataType.Kind.BOOLEAN).notNull());
        types.addAll(side.types());
        return new RowSerializer(types);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] tagged = row.fields();
        boolean left = TaggedRows.isLeft(tagged);
        Object[] own = rows.own(tagged);
        boolean ownOuter = left ? node.type().leftOuter() : node.type().rightOuter();
        boolean otherOuter = left ? node.type().rightOuter() : node.type().leftOuter();
        byte[] key = rows.key(tagged);
        Long time = eventTime ? (Long) own[left ? node.leftTimeField() : node.rightTimeField()]
                : (Long) System.currentTimeMillis();
        if (key == null || time == null) {
            if (ownOuter) {
                output.emit(Row.insert(rows.padded(own, left)));
            }
            return;
        }
        // The other side's times that match: left - right within [lower, upper].
        long from = left ? time - upper : time + lower;
        long to = left ? time - lower : time + upper;
        boolean matched = false;
        KeyedValueState<Object[]> others = left ? rights : lefts;
        List<StateEntry<Object[]>> newlyMatched = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = others.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                long t = TaggedRows.timeOf(e.namespace());
                if (t > to) {
                    break;
                }
                Object[] other = Arrays.copyOfRange(e.value(), 1, e.value().length);
                if (t < from || !(left ? rows.matches(own, other) : rows.matches(other, own))) {
                    continue;
                }
                matched = true;
                output.emit(Row.insert(left ? rows.joined(own, other) : rows.joined(other, own)));
                if (otherOuter && !(Boolean) e.value()[MATCHED]) {
                    newlyMatched.add(e);
                }
            }
        }
        for (StateEntry<Object[]> e : newlyMatched) {
            Object[] v = e.value().clone();
            v[MATCHED] = true;
            others.put(key, e.namespace(), v);
        }
        // Rows still to come on the other side have times after the watermark (at or after the clock).
        long expiry = eventTime ? to : to + 1;
        if (expiry > now()) {
            byte[] id = rows.rowId(time);
            Object[] v = new Object[1 + own.length];
            v[MATCHED] = matched;
            System.arraycopy(own, 0, v, 1, own.length);
            (left ? lefts : rights).put(key, id, v);
            byte[] timerNs = new byte[1 + id.length];
            timerNs[0] = (byte) (left ? 0 : 1);
            System.arraycopy(id, 0, timerNs, 1, id.length);
            if (eventTime) {
                timers.registerEventTimeTimer(expiry, key, timerNs);
            } else {
                timers.registerProcessingTimeTimer(expiry, key, timerNs);
                context.requestProcessingTime(expiry);
            }
        } else {
            if (eventTime) {
                lateRows++;
            }
            if (ownOuter && !matched) {
                output.emit(Row.insert(rows.padded(own, left)));
            }
        }
    }

    private long now() {
        return eventTime ? watermark : System.currentTimeMillis();
    }

    /** A stored row's range has passed: drop it, padded out first if its side is outer and it never matched. */
    private void expire(long time, byte[] key, byte[] timerNs) throws Exception {
        boolean left = timerNs[0] == 0;
        byte[] id = Arrays.copyOfRange(timerNs, 1, timerNs.length);
        KeyedValueState<Object[]> state = left ? lefts : rights;
        Object[] v = state.get(key, id);
        if (v == null) {
            return;
        }
        state.remove(key, id);
        if ((left ? node.type().leftOuter() : node.type().rightOuter()) && !(Boolean) v[MATCHED]) {
            output.emit(Row.insert(rows.padded(Arrays.copyOfRange(v, 1, v.length), left)));
        }
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        this.watermark = watermark;
        if (eventTime) {
            timers.fireEventTimeTimers(watermark, this::expire);
        }
        long delay = node.watermarkDelay();
        output.emitWatermark(watermark == Long.MAX_VALUE || watermark < Long.MIN_VALUE + delay ? watermark
                : watermark - delay);
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        if (!eventTime) {
            timers.fireProcessingTimeTimers(now, this::expire);
            requestNextProcessingTime();
        }
    }

    /** Bounded input: no row is still to come, so processing-time rows expire now (event time ends by watermark). */
    @Override
    public void endOfInput() throws Exception {
        if (!eventTime) {
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, this::expire);
        }
    }

    @Override
    public void close() throws Exception {
        rows.close();
    }

    private void requestNextProcessingTime() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }

    @Override
    public long lateRecords() {
        return lateRows;
    }
}
