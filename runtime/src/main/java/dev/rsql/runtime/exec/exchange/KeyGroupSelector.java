package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.state.KeyGroups;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.RowType;

/**
 * The key group of a row, from its key fields. Key bytes are hashed exactly as keyed state hashes them, so the
 * partition (task, queue) that owns a key group finds every key it is sent in its own state.
 */
public final class KeyGroupSelector {

    private final int[] keyFields;
    private final RowSerializer keySerializer;
    private final int keyGroups;

    public KeyGroupSelector(RowType rowType, int[] keyFields, int keyGroups) {
        this.keyFields = keyFields.clone();
        // The bytes the aggregations key their state by: equal keys (0.0 and -0.0) meet in one task and key group.
        this.keySerializer = RowSerializer.forKeys(rowType, keyFields);
        this.keyGroups = keyGroups;
    }

    public int keyGroup(Object[] row) {
        Object[] key = new Object[keyFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyFields[i]];
        }
        return KeyGroups.of(keySerializer.serialize(key), keyGroups);
    }

    /** The partition of {@code partitions} that owns the row's key group. */
    public int partitionOf(Object[] row, int partitions) {
        return KeyGroups.partitionOf(keyGroup(row), partitions, keyGroups);
    }
}
