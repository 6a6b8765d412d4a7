package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.types.RowType;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;

/**
 * The last change per upsert key (the table's primary key) of the rows a transactional writer was given since its
 * last flush: under mini-batch, a key's earlier changes of one checkpoint are replaced before they are sent, since a
 * consumer applying the upserts by key ends with the last one anyway.
 */
final class CoalescedUpserts {

    private final int[] keyFields;
    private final RowSerializer keys;
    private final LinkedHashMap<ByteBuffer, Row> last = new LinkedHashMap<>();

    CoalescedUpserts(RowType rowType, int[] keyFields) {
        this.keyFields = keyFields.clone();
        this.keys = RowSerializer.forKeys(rowType, keyFields);
    }

    void add(Row row) {
        Object[] key = new Object[keyFields.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row.get(keyFields[i]);
        }
        last.put(ByteBuffer.wrap(keys.serialize(key)), row);
    }

    boolean isEmpty() {
        return last.isEmpty();
    }

    /** The rows to send, one per key; {@link #clear} once sent. */
    Collection<Row> rows() {
        return last.values();
    }

    void clear() {
        last.clear();
    }
}
