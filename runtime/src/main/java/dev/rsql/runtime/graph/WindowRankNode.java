package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.List;
import java.util.Objects;

/**
 * Window TopN (and window deduplication, a window TopN of one row): per value of the partition fields, which include
 * a window's end, the rows ranked within {@code [rankStart, rankEnd]}, emitted as inserts once the watermark passes
 * the window's end, when the window's rows are dropped. Rows of a window that has fired are late and dropped. Output:
 * the input's fields, then the rank (BIGINT) when {@code outputRankNumber}. Its input is insert-only, carries event
 * time window columns and is partitioned by the partition fields.
 */
public final class WindowRankNode extends GraphNode {

    private final int[] partitionFields;
    private final RankNode.Order order;
    private final RankNode.Function function;
    private final long rankStart;
    private final long rankEnd;
    private final boolean outputRankNumber;
    private final int windowEndField;

    public WindowRankNode(String id, GraphNode input, RowType outputType, int[] partitionFields, RankNode.Order order,
                          RankNode.Function function, long rankStart, long rankEnd, boolean outputRankNumber,
                          int windowEndField) {
        super(id, List.of(input), outputType);
        if (rankStart < 1 || rankEnd < rankStart) {
            throw new IllegalArgumentException("rank range [" + rankStart + ", " + rankEnd + "] is empty");
        }
        this.partitionFields = partitionFields.clone();
        this.order = Objects.requireNonNull(order);
        this.function = Objects.requireNonNull(function);
        this.rankStart = rankStart;
        this.rankEnd = rankEnd;
        this.outputRankNumber = outputRankNumber;
        this.windowEndField = windowEndField;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] partitionFields() {
        return partitionFields.clone();
    }

    public RankNode.Order order() {
        return order;
    }

    public RankNode.Function function() {
        return function;
    }

    public long rankStart() {
        return rankStart;
    }

    public long rankEnd() {
        return rankEnd;
    }

    public boolean outputRankNumber() {
        return outputRankNumber;
    }

    public int windowEndField() {
        return windowEndField;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "WindowRank";
    }

    @Override
    public String describe() {
        return function + " partitionBy " + Fields.names(input().outputType(), partitionFields) + " orderBy " + order
                + " rank [" + rankStart + ", " + rankEnd + "]" + (outputRankNumber ? " with rank number" : "")
                + " when the window ends";
    }
}
