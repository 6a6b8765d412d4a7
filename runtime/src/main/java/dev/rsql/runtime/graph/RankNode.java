package dev.rsql.runtime.graph;

import dev.rsql.runtime.types.RowType;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * TopN: per value of the partition fields, the rows whose rank by the sort fields lies in {@code [rankStart,
 * rankEnd]} (ROW_NUMBER, RANK or DENSE_RANK). Output: the input's fields, then the rank (BIGINT) when
 * {@code outputRankNumber}. Emits the changes of that result: with the rank number (ROW_NUMBER), a position whose row
 * changes is an update of that position; when one row per partition is kept, a new row is an update of the
 * partition; otherwise a row entering the range is an insert and one leaving it a delete. Its input must be
 * partitioned by the partition fields (an {@link ExchangeNode}); over an insert-only input only the rows within the
 * range are kept, over a changelog every row (a retracted row in the range is replaced by the next one).
 */
public final class RankNode extends GraphNode {

    public enum Function { ROW_NUMBER, RANK, DENSE_RANK }

    /** The sort fields, each ascending or descending, NULLs first or last. */
    public record Order(int[] fields, boolean[] descending, boolean[] nullsFirst) {
        public Order {
            if (fields.length != descending.length || fields.length != nullsFirst.length) {
                throw new IllegalArgumentException("one direction and null order per sort field");
            }
            fields = fields.clone();
            descending = descending.clone();
            nullsFirst = nullsFirst.clone();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < fields.length; i++) {
                sb.append(i == 0 ? "" : ", ").append('$').append(fields[i]).append(descending[i] ? " DESC" : " ASC")
                        .append(nullsFirst[i] ? " NULLS FIRST" : " NULLS LAST");
            }
            return sb.toString();
        }
    }

    private final int[] partitionFields;
    private final Order order;
    private final Function function;
    private final long rankStart;
    private final long rankEnd;
    private final boolean outputRankNumber;
    private final boolean appendOnlyInput;
    private final boolean updateBefore;
    private final long stateTtlMillis;

    /**
     * @param appendOnlyInput the input never takes rows back, so rows ranked after {@code rankEnd} can be forgotten
     * @param updateBefore emit -U before each +U
     * @param stateTtlMillis forget a partition after this long without changes (0 = keep forever)
     */
    public RankNode(String id, GraphNode input, RowType outputType, int[] partitionFields, Order order,
                    Function function, long rankStart, long rankEnd, boolean outputRankNumber,
                    boolean appendOnlyInput, boolean updateBefore, long stateTtlMillis) {
        super(id, List.of(input), outputType);
        if (rankStart < 1 || rankEnd < rankStart) {
            throw new IllegalArgumentException("rank range [" + rankStart + ", " + rankEnd + "] is empty");
        }
        if (outputType.size() != input.outputType().size() + (outputRankNumber ? 1 : 0)) {
            throw new IllegalArgumentException("rank output is the input's fields, then the rank if output");
        }
        this.partitionFields = partitionFields.clone();
        this.order = Objects.requireNonNull(order);
        this.function = Objects.requireNonNull(function);
        this.rankStart = rankStart;
        this.rankEnd = rankEnd;
        this.outputRankNumber = outputRankNumber;
        this.appendOnlyInput = appendOnlyInput;
        this.updateBefore = updateBefore;
        this.stateTtlMillis = stateTtlMillis;
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] partitionFields() {
        return partitionFields.clone();
    }

    public Order order() {
        return order;
    }

    public Function function() {
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

    public boolean appendOnlyInput() {
        return appendOnlyInput;
    }

    public boolean emitsUpdateBefore() {
        return updateBefore;
    }

    public long stateTtlMillis() {
        return stateTtlMillis;
    }

    /** A ROW_NUMBER range of one position: at most one row per partition. */
    public boolean singleRow() {
        return function == Function.ROW_NUMBER && rankStart == rankEnd;
    }

    @Override
    public boolean producesUpdates() {
        return true;
    }

    @Override
    public boolean keepsState() {
        return true;
    }

    @Override
    public String kind() {
        return "Rank";
    }

    @Override
    public String describe() {
        return function + " partitionBy " + Fields.names(input().outputType(), partitionFields) + " orderBy " + order
                + " rank [" + rankStart + ", " + rankEnd + "]" + (outputRankNumber ? " with rank number" : "")
                + (appendOnlyInput ? " append-only" : " retractable")
                + (stateTtlMillis > 0 ? " state-ttl=" + stateTtlMillis + "ms" : "");
    }

    @Override
    public String toString() {
        return super.toString() + Arrays.toString(partitionFields);
    }
}
