package dev.rsql.runtime.graph;

import dev.rsql.runtime.aggregate.AggregateCall;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A windowed GROUP BY over rows that carry their window ({@code window_start}, {@code window_end} fields, see
 * {@link WindowAssignerNode}): one result row per group and window, emitted when the watermark (or, for
 * processing-time windows, the clock) passes the window's end, and per {@link EmitSpec} early or late. Session
 * windows of one key are merged when they touch. Output: the group fields, one field per aggregate, then window start,
 * end and time (end - 1 ms, a rowtime attribute for cascading). Rows whose window has closed (end + allowed lateness at
 * or before the watermark) are late: counted, and written to the late-data table when one is set. Its input must be
 * partitioned by the group fields.
 */
public final class WindowAggregateNode extends GraphNode {

    private final int[] groupFields;
    private final int windowStartField;
    private final int windowEndField;
    private final boolean eventTime;
    private final boolean merging;
    private final WindowSlices slices;
    private final List<AggregateCall> aggregates;
    private final EmitSpec emit;
    private final TableDescriptor lateDataTable;

    public WindowAggregateNode(String id, GraphNode input, int[] groupFields, int windowStartField, int windowEndField,
                               boolean eventTime, boolean merging, List<AggregateCall> aggregates, EmitSpec emit,
                               RowType outputType, TableDescriptor lateDataTable) {
        this(id, input, groupFields, windowStartField, windowEndField, eventTime, merging, null, aggregates, emit,
                outputType, lateDataTable);
    }

    /** A window aggregation over rows carrying their slice of a HOP or CUMULATE window (emitted on watermark). */
    public WindowAggregateNode(String id, GraphNode input, int[] groupFields, int windowStartField, int windowEndField,
                               boolean eventTime, WindowSlices slices, List<AggregateCall> aggregates,
                               RowType outputType, TableDescriptor lateDataTable) {
        this(id, input, groupFields, windowStartField, windowEndField, eventTime, false, slices, aggregates,
                EmitSpec.ON_WATERMARK, outputType, lateDataTable);
    }

    private WindowAggregateNode(String id, GraphNode input, int[] groupFields, int windowStartField,
                                int windowEndField, boolean eventTime, boolean merging, WindowSlices slices,
                                List<AggregateCall> aggregates, EmitSpec emit, RowType outputType,
                                TableDescriptor lateDataTable) {
        super(id, List.of(input), outputType);
        if (outputType.size() != groupFields.length + aggregates.size() + 3) {
            throw new IllegalArgumentException("window aggregate output needs the group fields, aggregates and "
                    + "window start, end, time");
        }
        this.groupFields = groupFields.clone();
        this.windowStartField = windowStartField;
        this.windowEndField = windowEndField;
        this.eventTime = eventTime;
        this.merging = merging;
        this.slices = slices;
        this.aggregates = List.copyOf(aggregates);
        this.emit = emit;
        this.lateDataTable = lateDataTable;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] groupFields() {
        return groupFields.clone();
    }

    public int windowStartField() {
        return windowStartField;
    }

    public int windowEndField() {
        return windowEndField;
    }

    /** Windows close by watermark (true) or by the clock. */
    public boolean eventTime() {
        return eventTime;
    }

    /** Session windows: windows of one key that touch are merged. */
    public boolean merging() {
        return merging;
    }

    /** The slices the input rows carry (instead of their windows), or null. */
    public WindowSlices slices() {
        return slices;
    }

    public List<AggregateCall> aggregates() {
        return aggregates;
    }

    public EmitSpec emit() {
        return emit;
    }

    /** Where late rows go, or null. */
    public TableDescriptor lateDataTable() {
        return lateDataTable;
    }

    @Override
    public boolean producesUpdates() {
        return emit.producesUpdates() || input().producesUpdates();
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "WindowAggregate";
    }

    @Override
    public String describe() {
        return (merging ? "session " : slices != null ? "sliced " + slices + " " : "")
                + (eventTime ? "rowtime" : "proctime") + " window group by "
                + Fields.names(input().outputType(), groupFields) + " "
                + aggregates.stream().map(AggregateCall::name).collect(Collectors.joining(", ")) + " " + emit
                + (lateDataTable == null ? "" : " late-data=" + lateDataTable.name());
    }
}
