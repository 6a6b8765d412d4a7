package dev.rsql.runtime.graph;

import java.util.Arrays;
import java.util.List;

/**
 * Repartitions rows by key: every row with the same key goes to the same downstream task, so keyed state lives in
 * one place. No key fields means one partition (a global aggregate). The graph is cut into stages here: the tasks
 * before the exchange run per source shard, those after it per partition.
 */
public final class ExchangeNode extends GraphNode {

    private final int[] keyFields;

    public ExchangeNode(String id, GraphNode input, int[] keyFields) {
        super(id, List.of(input), input.outputType());
        this.keyFields = keyFields.clone();
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    /** Indices of the key fields in the input rows; empty for a single partition. */
    public int[] keyFields() {
        return keyFields.clone();
    }

    public boolean isSinglePartition() {
        return keyFields.length == 0;
    }

    @Override
    public String kind() {
        return "Exchange";
    }

    @Override
    public String describe() {
        return keyFields.length == 0 ? "single partition" : "by " + Fields.names(outputType(), keyFields);
    }

    @Override
    public String toString() {
        return super.toString() + Arrays.toString(keyFields);
    }
}
