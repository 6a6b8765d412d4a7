package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Aggregates over a window of rows ending at each row ({@code agg(...) OVER (PARTITION BY k ORDER BY time ...)}):
 * every input row comes out once, followed by one field per aggregate. The window is the rows of the row's partition
 * up to and including it, in time order: all of them (UNBOUNDED PRECEDING), the last n + 1 (ROWS n PRECEDING), or
 * those at most the interval older (RANGE, where rows of one time are peers and get the same result).
 *
 * <p>On event time rows wait until the watermark passes them and come out in time order; rows at or behind the
 * watermark on arrival are late: counted, and written to the late-data table when one is set. On processing time a
 * row is processed when it arrives (RANGE: once its millisecond has passed, with its peers, as in Flink). Insert-only
 * in and out. Its input must be partitioned by the partition fields.
 */
public final class OverAggregateNode extends GraphNode {

    /** {@link #preceding} of a window starting at the partition's first row. */
    public static final long UNBOUNDED = -1;

    private final int[] partitionFields;
    private final int timeField;
    private final boolean eventTime;
    private final boolean rows;
    private final long preceding;
    private final List<AggregateCall> aggregates;
    private final long stateTtlMillis;
    private final TableDescriptor lateDataTable;

    /**
     * @param rows a ROWS window (else RANGE)
     * @param preceding rows (ROWS) or milliseconds (RANGE) before the current row the window reaches back, or
     *                  {@link #UNBOUNDED}
     * @param stateTtlMillis drop an idle partition's state after this long without rows (0 = keep forever)
     */
    public OverAggregateNode(String id, GraphNode input, int[] partitionFields, int timeField, boolean eventTime,
                             boolean rows, long preceding, List<AggregateCall> aggregates, RowType outputType,
                             long stateTtlMillis, TableDescriptor lateDataTable) {
        super(id, List.of(input), outputType);
        if (outputType.size() != input.outputType().size() + aggregates.size()) {
            throw new IllegalArgumentException("over aggregate output needs the input fields and one per aggregate");
        }
        if (preceding < UNBOUNDED) {
            throw new IllegalArgumentException("an over window reaches back a non-negative distance: " + preceding);
        }
        this.partitionFields = partitionFields.clone();
        this.timeField = timeField;
        this.eventTime = eventTime;
        this.rows = rows;
        this.preceding = preceding;
        this.aggregates = List.copyOf(aggregates);
        this.stateTtlMillis = stateTtlMillis;
        this.lateDataTable = lateDataTable;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] partitionFields() {
        return partitionFields.clone();
    }

    /** The ORDER BY field: the event time (for processing time the clock is read instead). */
    public int timeField() {
        return timeField;
    }

    public boolean eventTime() {
        return eventTime;
    }

    /** ROWS (true) or RANGE. */
    public boolean rows() {
        return rows;
    }

    public long preceding() {
        return preceding;
    }

    public boolean bounded() {
        return preceding != UNBOUNDED;
    }

    public List<AggregateCall> aggregates() {
        return aggregates;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    /** Where late rows go, or null. */
    public TableDescriptor lateDataTable() {
        return lateDataTable;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "OverAggregate";
    }

    /** The frame in SQL, e.g. {@code ROWS BETWEEN 2 PRECEDING AND CURRENT ROW}. */
    public String frame() {
        String from = !bounded() ? "UNBOUNDED" : rows ? String.valueOf(preceding) : preceding + " ms";
        return (rows ? "ROWS" : "RANGE") + " BETWEEN " + from + " PRECEDING AND CURRENT ROW";
    }

    @Override
    public String describe() {
        return (eventTime ? "rowtime" : "proctime") + " over partition by "
                + Fields.names(input().outputType(), partitionFields) + " order by "
                + input().outputType().name(timeField) + " " + frame() + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", "))
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "")
                + (lateDataTable == null ? "" : " late-data=" + lateDataTable.name());
    }
}
