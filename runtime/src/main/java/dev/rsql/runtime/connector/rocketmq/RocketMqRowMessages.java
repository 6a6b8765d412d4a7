package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

import java.util.List;
import java.util.Map;

/**
 * Turns the rows of one writer into messages and picks their queues.
 *
 * <p>Each row becomes one message: the body is the table's format applied to the physical columns; the message key
 * comes from a metadata column {@code keys} or the columns of option {@code sink.key-columns} (their values joined
 * with {@code |}); the tag from a metadata column {@code tag}, option {@code sink.tag-column}, or option {@code tag};
 * a MAP metadata column {@code properties} and other writable metadata columns become user properties (attributes the
 * broker assigns, such as offsets and timestamps, are not written). A row with a key goes to queue
 * {@code hash(key) mod queues} (stable per key), a row without one to the next queue in round-robin order.
 */
final class RocketMqRowMessages {

    private final RocketMqSink sink;
    private final RowEncoder encoder;
    private final boolean physicalOnly;
    private final StringBuilder keyBuilder = new StringBuilder();
    private int roundRobin;

    RocketMqRowMessages(RocketMqSink sink, RowEncoder encoder, int taskIndex) {
        this.sink = sink;
        this.encoder = encoder;
        this.physicalOnly = sink.physicalPositions.length == sink.context.table().schema().columns().size();
        this.roundRobin = Math.floorMod(taskIndex, 1 << 16);
    }

    Message toMessage(Row row) {
        Object[] fields = row.fields();
        Row payload = row;
        if (!physicalOnly) {
            int[] pos = sink.physicalPositions;
            Object[] physical = new Object[pos.length];
            for (int i = 0; i < pos.length; i++) {
                physical[i] = fields[pos[i]];
            }
            payload = row.withFields(physical);
        }
        Message msg = new Message(sink.options.topic, encoder.encode(payload));
        String key = key(fields);
        if (key != null && !key.isEmpty()) {
            msg.setKeys(key);
        }
        String tag = null;
        if (sink.tagMetadata >= 0) {
            tag = MessageMetadata.text(fields[sink.tagMetadata]);
        }
        if (tag == null && sink.tagColumn >= 0) {
            tag = MessageMetadata.text(fields[sink.tagColumn]);
        }
        if (tag == null) {
            tag = sink.constantTag;
        }
        if (tag != null && !tag.isEmpty()) {
            msg.setTags(tag);
        }
        if (sink.propertiesMap >= 0 && fields[sink.propertiesMap] instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) fields[sink.propertiesMap]).entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    msg.putUserProperty(e.getKey().toString(), MessageMetadata.text(e.getValue()));
                }
            }
        }
        for (int i = 0; i < sink.propertyColumns.length; i++) {
            String v = MessageMetadata.text(fields[sink.propertyColumns[i]]);
            if (v != null) {
                msg.putUserProperty(sink.propertyNames[i], v);
            }
        }
        return msg;
    }

    /** The queue of a message made by {@link #toMessage}: by its key's hash, else the next in round-robin order. */
    MessageQueue queueFor(Message msg) {
        List<MessageQueue> queues = sink.queues();
        String key = msg.getKeys();
        return key != null
                ? queues.get(Math.floorMod(key.hashCode(), queues.size()))
                : queues.get(Math.floorMod(roundRobin++, queues.size()));
    }

    /** The message key: metadata column {@code keys}, else the sink.key-columns values joined with '|'. */
    private String key(Object[] fields) {
        if (sink.keyMetadata >= 0) {
            String k = MessageMetadata.text(fields[sink.keyMetadata]);
            if (k != null) {
                return k;
            }
        }
        if (sink.keyColumns.length == 0) {
            return null;
        }
        keyBuilder.setLength(0);
        boolean any = false;
        for (int i = 0; i < sink.keyColumns.length; i++) {
            if (i > 0) {
                keyBuilder.append('|');
            }
            Object v = fields[sink.keyColumns[i]];
            any |= v != null;
            keyBuilder.append(v == null ? "" : MessageMetadata.text(v));
        }
        return any ? keyBuilder.toString() : null;
    }
}
