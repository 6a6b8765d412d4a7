package dev.rsql.runtime.exec.shuffle;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.types.RowType;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.namesrv;
import static dev.rsql.runtime.connector.rocketmq.RocketMqTestSupport.unique;

/**
 * The receiving side of a shuffle topic as a test sees it: a {@link ShuffleReader} alone in a fresh group (so it owns
 * every queue, read from offset 0) feeding one {@link ShuffleInput} per queue. Not thread-safe: {@link #pollOnce} and
 * the getters belong to the test thread.
 */
final class ShuffleDownstream implements AutoCloseable {

    /** What one queue's task received. */
    static final class Queue implements ShuffleInput.Handler {
        final ShuffleInput input;
        final boolean keepRows;
        final List<Row> rows = new ArrayList<>();
        long count;

        Queue(ShuffleInput input, boolean keepRows) {
            this.input = input;
            this.keepRows = keepRows;
        }

        @Override
        public void row(long inputPosition, Row row) {
            count++;
            if (keepRows) {
                rows.add(row);
            }
        }

        @Override
        public void watermark(long watermark) {
        }
    }

    private final ShuffleTopic topic;
    private final ShuffleReader reader;
    private final Queue[] queues;
    private final Set<MessageQueue> assigned = ConcurrentHashMap.newKeySet();
    private long messages;

    ShuffleDownstream(ShuffleTopic topic, RowType rowType, Set<String> expectedChannels) throws Exception {
        this(topic, rowType, expectedChannels, true);
    }

    /** @param keepRows keep the rows received (else only count them) */
    ShuffleDownstream(ShuffleTopic topic, RowType rowType, Set<String> expectedChannels, boolean keepRows)
            throws Exception {
        this.topic = topic;
        this.queues = new Queue[topic.queueCount()];
        for (int i = 0; i < queues.length; i++) {
            queues[i] = new Queue(new ShuffleInput(rowType, expectedChannels, ChannelTable.empty()), keepRows);
        }
        String group = unique("rsql_test_shuffle");
        this.reader = new ShuffleReader(namesrv(), group, group, topic, new ShuffleReader.Listener() {
            @Override
            public void assigned(MessageQueue queue) {
                assigned.add(queue);
                reader().seek(queue, 0);
            }

            @Override
            public void revoked(MessageQueue queue) {
                throw new AssertionError("the only member of its group lost " + queue);
            }
        });
        reader.start();
    }

    private ShuffleReader reader() {
        return reader;
    }

    /** Reads what came; true when all queues are assigned (reading starts there). */
    boolean pollOnce() throws Exception {
        for (MessageExt m : reader.poll(Duration.ofMillis(20))) {
            Queue q = queues[topic.indexOf(reader.queueOf(m))];
            q.input.accept(m.getQueueOffset(), m.getBody(), q);
            messages++;
        }
        return assigned.size() == queues.length;
    }

    Queue queue(int index) {
        return queues[index];
    }

    /** Messages read, duplicates included. */
    long messages() {
        return messages;
    }

    long rowCount() {
        long n = 0;
        for (Queue q : queues) {
            n += q.count;
        }
        return n;
    }

    long duplicatesDropped() {
        long n = 0;
        for (Queue q : queues) {
            n += q.input.duplicatesDropped();
        }
        return n;
    }

    /** Rows by the channel named in field {@code channelField}, in arrival order per queue then by queue. */
    Map<String, List<Row>> rowsByChannel(int channelField) {
        Map<String, List<Row>> byChannel = new TreeMap<>();
        for (Queue q : queues) {
            for (Row r : q.rows) {
                byChannel.computeIfAbsent((String) r.get(channelField), k -> new ArrayList<>()).add(r);
            }
        }
        return byChannel;
    }

    @Override
    public void close() {
        reader.close();
    }
}
