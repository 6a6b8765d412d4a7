package dev.rsql.runtime.operator.join;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.TemporalJoinNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link TemporalJoinNode}. Per key, left rows wait one state entry each (namespace: time, sequence) and the
 * versions of the right side are one entry each under their time (a later row of the same time replaces it). Both
 * sides register a timer at their row's time: when the watermark passes, every waiting left row at or before the
 * watermark is joined, in time order, with the latest version at or before its time, and removed; then the versions
 * at or before the watermark are dropped but the latest of them, which later left rows may still need.
 *
 * <p>A right side that is a changelog (a versioned table read from a CDC format) ends a version with a -D row: the
 * deletion is a version of its own, all NULL (a real version has a time), after which left rows find no version. A
 * -U row is ignored: the +U after it is the next version (as in Flink, the old version stays valid until then).
 */
public final class TemporalJoinOperator implements Operator {

    private final TemporalJoinNode node;
    private final Output output;
    private final TaggedRows rows;
    private KeyedValueState<Object[]> lefts;
    private KeyedValueState<Object[]> versions;
    private TimerService timers;
    private long watermark = Long.MIN_VALUE;

    public TemporalJoinOperator(TemporalJoinNode node, Output output) {
        this.node = node;
        this.output = output;
        this.rows = new TaggedRows(node);
    }

    @Override
    public void open(OperatorContext context) throws Exception {
        rows.open(context);
        lefts = context.stateBackend().valueState(node.id(), "left", RowSerializer.of(node.leftType()));
        versions = context.stateBackend().valueState(node.id(), "versions", RowSerializer.of(node.rightType()));
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] tagged = row.fields();
        boolean left = TaggedRows.isLeft(tagged);
        Object[] own = rows.own(tagged);
        Long time = (Long) own[left ? node.leftTimeField() : node.rightTimeField()];
        byte[] key = rows.key(tagged);
        if (row.kind() == RowKind.UPDATE_BEFORE) {
            return;
        }
        if (key == null || time == null) {
            if (left && node.type().leftOuter()) {
                output.emit(Row.insert(rows.padded(own, true)));
            }
            return;
        }
        if (left) {
            lefts.put(key, rows.rowId(time), own);
        } else {
            byte[] ns = new byte[8];
            Namespaces.putOrderedLong(ns, 0, time);
            versions.put(key, ns, row.kind().isAccumulate() ? own : new Object[own.length]);
        }
        timers.registerEventTimeTimer(time, key, Namespaces.EMPTY);
    }

    private void fire(long time, byte[] key, byte[] namespace) throws Exception {
        List<Long> versionTimes = new ArrayList<>();
        List<Object[]> versionRows = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = versions.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                versionTimes.add(Namespaces.getOrderedLong(e.namespace(), 0));
                versionRows.add(e.value());
            }
        }
        List<byte[]> joined = new ArrayList<>();
        int version = -1;  // the latest version at or before the current left row's time
        try (CloseableIterator<StateEntry<Object[]>> it = lefts.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                long t = TaggedRows.timeOf(e.namespace());
                if (t > watermark) {
                    break;
                }
                while (version + 1 < versionTimes.size() && versionTimes.get(version + 1) <= t) {
                    version++;
                }
                Object[] l = e.value();
                if (version >= 0 && !isDeletion(versionRows.get(version)) && rows.matches(l, versionRows.get(version))) {
                    output.emit(Row.insert(rows.joined(l, versionRows.get(version))));
                } else if (node.type().leftOuter()) {
                    output.emit(Row.insert(rows.padded(l, true)));
                }
                joined.add(e.namespace());
            }
        }
        joined.forEach(id -> lefts.remove(key, id));
        for (int i = 0; i + 1 < versionTimes.size() && versionTimes.get(i + 1) <= watermark; i++) {
            byte[] ns = new byte[8];
            Namespaces.putOrderedLong(ns, 0, versionTimes.get(i));
            versions.remove(key, ns);
        }
    }

    private boolean isDeletion(Object[] version) {
        return version[node.rightTimeField()] == null;
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
}
