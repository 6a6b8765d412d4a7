package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.state.KeyGroups;
import dev.rsql.runtime.state.RowSerializer;

/**
 * An exchange inside one process: rows go from the upstream tasks to the partition that owns their key's key group,
 * through in-memory channels. Key bytes are hashed into key groups exactly as keyed state is, so a partition's task
 * finds every key it is sent in its own state.
 */
public final class LocalExchange {

    private final ExchangeNode node;
    private final int[] keyFields;
    private final RowSerializer keySerializer;
    private final int keyGroups;
    private final InputGate[] gates;

    public LocalExchange(ExchangeNode node, int partitions, int keyGroups) {
        this.node = node;
        this.keyFields = node.keyFields();
        // The bytes the aggregations key their state by: equal keys (0.0 and -0.0) meet in one task and key group.
        this.keySerializer = RowSerializer.forKeys(node.outputType(), keyFields);
        this.keyGroups = keyGroups;
        this.gates = new InputGate[node.isSinglePartition() ? 1 : partitions];
        for (int i = 0; i < gates.length; i++) {
            gates[i] = new InputGate();
        }
    }

    public ExchangeNode node() {
        return node;
    }

    public int partitions() {
        return gates.length;
    }

    public InputGate gate(int partition) {
        return gates[partition];
    }

    /** Connects a new upstream task: one channel into every partition. */
    public Channel[] connect(Runnable upstreamWakeup, long firstCheckpoint) {
        Channel[] channels = new Channel[gates.length];
        for (int i = 0; i < gates.length; i++) {
            channels[i] = gates[i].addChannel(upstreamWakeup, firstCheckpoint);
        }
        return channels;
    }

    /** The partition a row goes to. */
    int partitionOf(Object[] row) {
        if (gates.length == 1) {
            return 0;
        }
        Object[] key = new Object[keyFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyFields[i]];
        }
        int group = KeyGroups.of(keySerializer.serialize(key), keyGroups);
        return KeyGroups.partitionOf(group, gates.length, keyGroups);
    }
}
