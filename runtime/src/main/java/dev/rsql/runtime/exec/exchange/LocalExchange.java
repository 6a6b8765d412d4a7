package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.graph.ExchangeNode;

/**
 * An exchange inside one process: rows go from the upstream tasks to the partition that owns their key's key group
 * ({@link KeyGroupSelector}), through in-memory channels.
 */
public final class LocalExchange {

    private final ExchangeNode node;
    private final KeyGroupSelector keys;
    private final InputGate[] gates;

    public LocalExchange(ExchangeNode node, int partitions, int keyGroups) {
        this.node = node;
        this.keys = new KeyGroupSelector(node.outputType(), node.keyFields(), keyGroups);
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
        return keys.partitionOf(row, gates.length);
    }
}
