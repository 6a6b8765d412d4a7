package dev.rsql.runtime.graph;

import java.util.List;

/**
 * In front of a sink whose primary key is not the key its input is updated by (Flink's SinkUpsertMaterializer):
 * keeps, per value of the key fields, every row currently in the result in arrival order, and emits per key the last
 * of them: +I when the key appears, +U when its last row changes, -D when its last row is taken back. Without it, a
 * retraction arriving after an insert of another row with the same key would delete the key from the sink. Its input
 * must be partitioned by the key fields (an {@link ExchangeNode}) and carry retractions (-U and -D).
 */
public final class UpsertMaterializeNode extends GraphNode {

    private final int[] keyFields;

    public UpsertMaterializeNode(String id, GraphNode input, int[] keyFields) {
        super(id, List.of(input), input.outputType());
        this.keyFields = keyFields.clone();
    }

    public GraphNode input() {
        return inputs().get(0);
    }

    public int[] keyFields() {
        return keyFields.clone();
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
        return "UpsertMaterialize";
    }

    @Override
    public String describe() {
        return "by " + Fields.names(outputType(), keyFields);
    }
}
