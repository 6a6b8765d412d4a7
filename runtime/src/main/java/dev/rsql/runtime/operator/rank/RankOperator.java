package dev.rsql.runtime.operator.rank;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.RankNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.CloseableIterator;
import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.OrderedKeyEncoder;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.StateEntry;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a {@link RankNode}. A partition's rows are state entries of its key, one per distinct row, stored under the
 * namespace {@code sort key ‖ row} (the sort key encoded so that byte order is rank order): reading the key's entries
 * in order yields the rows by rank, and a change reads only up to the last rank of the range. The entry's value is
 * how many times the row is present and where the row starts in the namespace. A change compares the range's rows
 * before and after it and emits the difference. Over an insert-only input, rows ranked after the range are deleted as
 * they fall out (they cannot come back); a row that ranks after a full range is dropped unread. A retraction of a row
 * that is not there (expired) is ignored. With a state TTL, a partition untouched for that long is forgotten.
 */
public final class RankOperator implements Operator {

    private static final Object[] NO_ROW = null;

    private record Ranked(Object[] row, long rank) {
    }

    /** The rows of the range, and what decides whether a new row can enter it. */
    private record Top(List<Ranked> rows, byte[] lastSortKey, boolean full) {
    }

    private final RankNode node;
    private final Output output;
    private final int[] partitionFields;
    private final RowSerializer keySerializer;
    private final RowSerializer rowSerializer;
    private final OrderedKeyEncoder sortKey;
    private final long ttl;
    private KeyedValueState<Object[]> rows;
    private KeyedValueState<Object[]> touched;
    private TimerService timers;
    private OperatorContext context;

    public RankOperator(RankNode node, Output output) {
        this.node = node;
        this.output = output;
        this.partitionFields = node.partitionFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), partitionFields);
        this.rowSerializer = RowSerializer.of(node.input().outputType());
        RankNode.Order order = node.order();
        this.sortKey = new OrderedKeyEncoder(node.input().outputType().types(), order.fields(), order.descending(),
                order.nullsFirst());
        this.ttl = node.stateTtlMillis();
    }

    @Override
    public void open(OperatorContext context) {
        this.context = context;
        DataType bigint = DataType.of(DataType.Kind.BIGINT).notNull();
        rows = context.stateBackend().valueState(node.id(), "rows", new RowSerializer(List.of(bigint, bigint)));
        touched = context.stateBackend().valueState(node.id(), "touched", new RowSerializer(List.of(bigint)));
        timers = context.stateBackend().timerService(node.id());
        if (ttl > 0) {
            requestNextTimer();
        }
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        Object[] partition = new Object[partitionFields.length];
        for (int i = 0; i < partition.length; i++) {
            partition[i] = in[partitionFields[i]];
        }
        byte[] key = keySerializer.serialize(partition);
        long now = System.currentTimeMillis();
        if (ttl > 0) {
            Object[] last = touched.get(key, Namespaces.EMPTY);
            if (last != null && (Long) last[0] + ttl <= now) {
                forget(key);  // expired, though its timer has not fired yet
            }
        }
        byte[] sort = sortKey.encode(in);
        byte[] rowBytes = rowSerializer.serialize(in);
        byte[] namespace = Arrays.copyOf(sort, sort.length + rowBytes.length);
        System.arraycopy(rowBytes, 0, namespace, sort.length, rowBytes.length);
        Object[] stored = rows.get(key, namespace);
        boolean accumulate = row.kind().isAccumulate();
        if (!accumulate && stored == null) {
            return;  // taking back a row that is not there (expired): nothing to do
        }
        Top before = top(key, false);
        boolean outside = before.full() && Arrays.compareUnsigned(sort, before.lastSortKey()) > 0;
        if (outside && node.appendOnlyInput()) {
            return;  // ranks after a full range, where it stays: rows only ever arrive
        }
        long count = stored == null ? 0 : (Long) stored[0];
        count += accumulate ? 1 : -1;
        if (count == 0) {
            rows.remove(key, namespace);
        } else {
            rows.put(key, namespace, new Object[] {count, (long) sort.length});
        }
        touch(key, now);
        if (outside) {
            return;  // the range's rows are unchanged
        }
        emitChanges(before.rows(), top(key, node.appendOnlyInput()).rows());
    }

    /**
     * The partition's rows ranked within the range, read in rank order up to the first row after it; with
     * {@code prune}, the rows after the range are deleted.
     */
    private Top top(byte[] key, boolean prune) {
        List<Ranked> result = new ArrayList<>();
        List<byte[]> after = new ArrayList<>();
        long position = 0;
        long rank = 0;
        byte[] previous = null;
        int previousLength = 0;
        try (CloseableIterator<StateEntry<Object[]>> it = rows.entries(key)) {
            while (it.hasNext()) {
                StateEntry<Object[]> e = it.next();
                byte[] ns = e.namespace();
                long count = (Long) e.value()[0];
                int length = ((Long) e.value()[1]).intValue();
                boolean newSortKey = previous == null
                        || !Arrays.equals(previous, 0, previousLength, ns, 0, length);
                long first = switch (node.function()) {
                    case ROW_NUMBER -> position + 1;
                    case RANK -> newSortKey ? position + 1 : rank;
                    case DENSE_RANK -> newSortKey ? rank + 1 : rank;
                };
                if (first > node.rankEnd()) {
                    if (!prune) {
                        break;
                    }
                    after.add(ns);
                    continue;
                }
                Object[] row = rowSerializer.deserialize(Arrays.copyOfRange(ns, length, ns.length));
                for (long i = 0; i < count; i++) {
                    rank = node.function() == RankNode.Function.ROW_NUMBER ? first + i : first;
                    if (rank >= node.rankStart() && rank <= node.rankEnd()) {
                        result.add(new Ranked(row, rank));
                    }
                }
                position += count;
                previous = ns;
                previousLength = length;
            }
        }
        for (byte[] ns : after) {
            rows.remove(key, ns);
        }
        long reached = node.function() == RankNode.Function.DENSE_RANK ? rank : position;
        byte[] last = previous == null ? null : Arrays.copyOf(previous, previousLength);
        return new Top(result, last, reached >= node.rankEnd());
    }

    private void emitChanges(List<Ranked> before, List<Ranked> after) throws Exception {
        if (node.singleRow() || node.outputRankNumber() && node.function() == RankNode.Function.ROW_NUMBER) {
            // One row per position: a position whose row changes is an update of it.
            for (long r = node.rankStart(); r <= node.rankEnd(); r++) {
                Object[] b = at(before, r);
                Object[] a = at(after, r);
                if (a == NO_ROW && b == NO_ROW) {
                    continue;
                }
                if (a == NO_ROW) {
                    output.emit(new Row(RowKind.DELETE, out(b, r)));
                } else if (b == NO_ROW) {
                    output.emit(new Row(RowKind.INSERT, out(a, r)));
                } else if (!Arrays.deepEquals(a, b)) {
                    if (node.emitsUpdateBefore()) {
                        output.emit(new Row(RowKind.UPDATE_BEFORE, out(b, r)));
                    }
                    output.emit(new Row(RowKind.UPDATE_AFTER, out(a, r)));
                }
            }
            return;
        }
        List<Ranked> added = new ArrayList<>(after);
        List<Ranked> removed = new ArrayList<>();
        for (Ranked b : before) {
            int at = indexOf(added, b);
            if (at >= 0) {
                added.remove(at);
            } else {
                removed.add(b);
            }
        }
        for (Ranked r : removed) {
            output.emit(new Row(RowKind.DELETE, out(r.row(), r.rank())));
        }
        for (Ranked r : added) {
            output.emit(new Row(RowKind.INSERT, out(r.row(), r.rank())));
        }
    }

    private int indexOf(List<Ranked> list, Ranked r) {
        for (int i = 0; i < list.size(); i++) {
            Ranked x = list.get(i);
            if ((!node.outputRankNumber() || x.rank() == r.rank()) && Arrays.deepEquals(x.row(), r.row())) {
                return i;
            }
        }
        return -1;
    }

    private static Object[] at(List<Ranked> rows, long rank) {
        for (Ranked r : rows) {
            if (r.rank() == rank) {
                return r.row();
            }
        }
        return NO_ROW;
    }

    private Object[] out(Object[] row, long rank) {
        if (!node.outputRankNumber()) {
            return row;
        }
        Object[] out = Arrays.copyOf(row, row.length + 1);
        out[row.length] = rank;
        return out;
    }

    private void touch(byte[] key, long now) {
        if (ttl <= 0) {
            return;
        }
        touched.put(key, Namespaces.EMPTY, new Object[] {now});
        // Timers are coalesced to a tenth of the TTL, so a busy partition holds few of them.
        long bucket = Math.max(1, ttl / 10);
        long at = (now + ttl + bucket - 1) / bucket * bucket;
        timers.registerProcessingTimeTimer(at, key, Namespaces.EMPTY);
        context.requestProcessingTime(at);
    }

    private void forget(byte[] key) {
        List<byte[]> namespaces = new ArrayList<>();
        try (CloseableIterator<StateEntry<Object[]>> it = rows.entries(key)) {
            it.forEachRemaining(e -> namespaces.add(e.namespace()));
        }
        for (byte[] ns : namespaces) {
            rows.remove(key, ns);
        }
        touched.remove(key, Namespaces.EMPTY);
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        if (ttl <= 0) {
            return;
        }
        timers.fireProcessingTimeTimers(now, (time, key, ns) -> {
            Object[] last = touched.get(key, Namespaces.EMPTY);
            if (last != null && (Long) last[0] + ttl <= now) {
                forget(key);
            }
        });
        requestNextTimer();
    }

    private void requestNextTimer() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }
}
