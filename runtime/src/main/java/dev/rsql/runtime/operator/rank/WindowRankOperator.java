package dev.rsql.runtime.operator.rank;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.graph.WindowRankNode;
import dev.rsql.runtime.operator.Operator;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;

/**
 * Runs a {@link WindowRankNode}. A window's rows are kept per partition key in rank order ({@link SortedRows}), the
 * window's end (8 ordered bytes) before the sort key, and only those within the range: a row ranking after a full
 * range is dropped, one that pushes a row out deletes it. One event-time timer per key and window end; when it fires
 * the window's rows are emitted with their ranks and deleted.
 */
public final class WindowRankOperator implements Operator {

    private final WindowRankNode node;
    private final Output output;
    private final int[] partitionFields;
    private final RowSerializer keySerializer;
    private SortedRows rows;
    private TimerService timers;
    private long watermark = Long.MIN_VALUE;
    private long lateRows;

    public WindowRankOperator(WindowRankNode node, Output output) {
        this.node = node;
        this.output = output;
        this.partitionFields = node.partitionFields();
        this.keySerializer = RowSerializer.forKeys(node.input().outputType(), partitionFields);
    }

    @Override
    public void open(OperatorContext context) {
        rows = new SortedRows(context.stateBackend(), node.id(), node.input().outputType(), node.order(),
                node.function(), node.rankStart(), node.rankEnd());
        timers = context.stateBackend().timerService(node.id());
        watermark = context.restoredWatermark();
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long end = (Long) in[node.windowEndField()];
        if (end - 1 <= watermark) {
            lateRows++;
            return;  // its window has fired: late
        }
        Object[] partition = new Object[partitionFields.length];
        for (int i = 0; i < partition.length; i++) {
            partition[i] = in[partitionFields[i]];
        }
        byte[] key = keySerializer.serialize(partition);
        byte[] window = new byte[8];
        Namespaces.putOrderedLong(window, 0, end);
        byte[] sort = rows.groupAndSortKey(window, in);
        SortedRows.Top top = rows.top(key, window, false);
        if (top.after(sort)) {
            return;
        }
        rows.change(key, sort, in, 1);
        if (top.full()) {
            rows.top(key, window, true);
        }
        timers.registerEventTimeTimer(end - 1, key, window);
    }

    @Override
    public void processWatermark(long wm) throws Exception {
        watermark = Math.max(watermark, wm);
        timers.fireEventTimeTimers(wm, (time, key, window) -> {
            for (SortedRows.Ranked r : rows.top(key, window, false).rows()) {
                output.emit(new Row(RowKind.INSERT, SortedRows.withRank(r.row(), r.rank(), node.outputRankNumber())));
            }
            rows.clear(key, window);
        });
        output.emitWatermark(wm);
    }

    @Override
    public long lateRecords() {
        return lateRows;
    }
}
