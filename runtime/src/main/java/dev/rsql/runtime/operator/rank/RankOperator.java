package dev.rsql.runtime.operator.rank;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.RankNode;
import dev.rsql.runtime.operator.KeyTtl;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a {@link RankNode}. A partition's rows are state entries of its key, one per distinct row, in rank order
 * ({@link SortedRows}). A change compares the range's rows before and after it and emits the difference. Over an insert-only input, rows ranked after the range are deleted as
 * they fall out (they cannot come back); a row that ranks after a full range is dropped unread. A retraction of a row
 * that is not there (expired) is ignored. With a state TTL, a partition untouched for that long is forgotten.
 */
public final class RankOperator implements Operator {

    private static final Object[] NO_ROW = null;

    private final RankNode node;
    private final Output output;
    private final int[] partitionFields;
    private final RowSerializer keySerializer;
    private final KeyTtl ttl;
    private SortedRows rows;

    public RankOperator(RankNode node, Output output) {
        this.node = node;
        this.output = output;
        this.partitionFields = node.partitionFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), partitionFields);
        this.ttl = new KeyTtl(node.stateTtlMillis());
    }

    @Override
    public void open(OperatorContext context) {
        rows = new SortedRows(context.stateBackend(), node.id(), node.input().outputType(), node.order(),
                node.function(), node.rankStart(), node.rankEnd());
        ttl.open(context, node.id());
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
        ttl.expireIfIdle(key, now, this::forget);
        byte[] sort = rows.groupAndSortKey(Namespaces.EMPTY, in);
        SortedRows.Top before = rows.top(key, Namespaces.EMPTY, false);
        boolean outside = before.after(sort);
        if (outside && node.appendOnlyInput()) {
            return;  // ranks after a full range, where it stays: rows only ever arrive
        }
        if (!rows.change(key, sort, in, row.kind().isAccumulate() ? 1 : -1)) {
            return;  // taking back a row that is not there (expired): nothing to do
        }
        ttl.touch(key, now);
        if (outside) {
            return;  // the range's rows are unchanged
        }
        emitChanges(before.rows(), rows.top(key, Namespaces.EMPTY, node.appendOnlyInput()).rows());
    }

    private void emitChanges(List<SortedRows.Ranked> before, List<SortedRows.Ranked> after) throws Exception {
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
        List<SortedRows.Ranked> added = new ArrayList<>(after);
        List<SortedRows.Ranked> removed = new ArrayList<>();
        for (SortedRows.Ranked b : before) {
            int at = indexOf(added, b);
            if (at >= 0) {
                added.remove(at);
            } else {
                removed.add(b);
            }
        }
        for (SortedRows.Ranked r : removed) {
            output.emit(new Row(RowKind.DELETE, out(r.row(), r.rank())));
        }
        for (SortedRows.Ranked r : added) {
            output.emit(new Row(RowKind.INSERT, out(r.row(), r.rank())));
        }
    }

    private int indexOf(List<SortedRows.Ranked> list, SortedRows.Ranked r) {
        for (int i = 0; i < list.size(); i++) {
            SortedRows.Ranked x = list.get(i);
            if ((!node.outputRankNumber() || x.rank() == r.rank()) && Arrays.deepEquals(x.row(), r.row())) {
                return i;
            }
        }
        return -1;
    }

    private static Object[] at(List<SortedRows.Ranked> rows, long rank) {
        for (SortedRows.Ranked r : rows) {
            if (r.rank() == rank) {
                return r.row();
            }
        }
        return NO_ROW;
    }

    private Object[] out(Object[] row, long rank) {
        return SortedRows.withRank(row, rank, node.outputRankNumber());
    }

    private void forget(byte[] key) {
        rows.clear(key, Namespaces.EMPTY);
    }

    @Override
    public void processWatermark(long watermark) throws Exception {
        output.emitWatermark(watermark);
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        ttl.onProcessingTime(now, this::forget);
    }
}
