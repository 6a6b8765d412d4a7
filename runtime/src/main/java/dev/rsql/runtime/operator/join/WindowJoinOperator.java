package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.WindowJoinNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link WindowJoinNode}. The key includes the window, so each side's rows of one key are the rows of one
 * window, stored one state entry each (namespace: a sequence number). A timer at the window's last millisecond joins
 * the two sides when the watermark gets there (nested loop over the window's rows, which are what one window of one
 * key holds), pads the unmatched rows of outer sides, and removes both sides' rows. Rows of a window already joined
 * are dropped and counted.
 */
public final class WindowJoinOperator implements Operator {

    private static final Logger LOG = LoggerFactory.getLogger(WindowJoinOperator.class);

    private final WindowJoinNode node;
    private final Output output;
    private final TaggedRows rows;
    private KeyedValueState<Object[]> lefts;
    private KeyedValueState<Object[]> rights;
    private TimerService timers;
    private long watermark = Long.MIN_VALUE;
    private long lateRows;

    public WindowJoinOperator(WindowJoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.rows = new TaggedRows(node);
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        rows.open(context);
        lefts = context.stateBackend().valueState(node.id(), "left", RowSerializer.of(node.leftType()));
        rights = context.stateBackend().valueState(node.id(), "right", RowSerializer.of(node.rightType()));
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] tagged = row.fields();
        boolean left = TaggedRows.isLeft(tagged);
        Object[] own = rows.own(tagged);
        long end = (Long) own[left ? node.leftWindowEndField() : node.rightWindowEndField()];
        if (end - 1 <= watermark) {
            if (lateRows++ == 0) {
                LOG.warn("window join {}: dropping rows of windows already joined (first: window end {}, watermark {})",
                        node.id(), end, watermark);
            }
            return;
        }
        byte[] key = rows.key(tagged);
        if (key == null) {
            if (left ? node.type().leftOuter() : node.type().rightOuter()) {
                output.emit(Row.insert(rows.padded(own, left)));
            }
            return;
        }
        (left ? lefts : rights).put(key, rows.rowId(end), own);
        timers.registerEventTimeTimer(end - 1, key, Namespaces.EMPTY);
    }

    private void fire(long time, byte[] key, byte[] namespace) throws Exception {
        List<Object[]> l = drain(lefts, key);
        List<Object[]> r = drain(rights, key);
        boolean[] rightMatched = new boolean[r.size()];
        for (Object[] a : l) {
            boolean matched = false;
            for (int j = 0; j < r.size(); j++) {
                if (rows.matches(a, r.get(j))) {
                    output.emit(Row.insert(rows.joined(a, r.get(j))));
                    matched = true;
                    rightMatched[j] = true;
                }
            }
            if (!matched && node.type().leftOuter()) {
                output.emit(Row.insert(rows.padded(a, true)));
            }
        }
        if (node.type().rightOuter()) {
            for (int j = 0; j < r.size(); j++) {
                if (!rightMatched[j]) {
                    output.emit(Row.insert(rows.padded(r.get(j), false)));
                }
            }
        }
    }

    /** A side's rows of the key, removed from state. */
    private static List<Object[]> drain(KeyedValueState<Object[]> state, byte[] key) {
        List<Object[]> out = new ArrayList<>();
        List<byte[]> ids = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = state.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                out.add(e.value());
                ids.add(e.namespace());
            }
        }
        ids.forEach(id -> state.remove(key, id));
        return out;
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        this.watermark = watermark;
        timers.fireEventTimeTimers(watermark, this::fire);
        output.emitWatermark(watermark);
    }

    @Override
    public void close() throws Exception {
        rows.close();
    }

    @Override
    public long lateRecords() {
        return lateRows;
    }
}
