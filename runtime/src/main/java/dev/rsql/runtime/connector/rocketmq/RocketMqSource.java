package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.LocalTimeZone;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.exec.JobMdc;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.rocketmq.GroupConsumer;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQAdminImpl;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The readable side of a RocketMQ topic: one {@link GroupConsumer} per source table, subscribed in the
 * table's consumer group so that every process running the job gets a share of the queues (RocketMQ's client-side
 * rebalancing). Each queue assigned here becomes a {@link RocketMqShardReader} announced to the engine; a queue taken
 * away is revoked from the engine first (its task finishes, flushes and commits) and dropped afterwards.
 *
 * <p>Offsets: where an assigned queue starts is decided here, not by the client's {@code consumeFromWhere}: the
 * job's checkpointed position; else the group's committed offset on the broker if there is one and the engine lets
 * it count ({@link ShardListener#resumesCommittedOffsets}; asked with {@code setZeroIfNotFound=false}, so the broker's
 * "new group reads from 0 while the queue is in memory" shortcut does not hide a missing offset), otherwise the
 * table's startup mode, and {@link GroupConsumer#position positioned} before its pull task starts. Commits go straight
 * to the broker, synchronously, with exactly the task's position.
 */
final class RocketMqSource implements Source {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSource.class);
    private static final long POLL_TIMEOUT_MS = 100;
    /** How often a source waiting for its topic asks the name server. */
    private static final long TOPIC_CHECK_MILLIS = 1_000;

    private final RocketMqOptions options;
    private final ConnectorContext context;
    private final String group;
    private final String subscription;
    private final RocketMqOptions.StartupMode mode;
    /** The table asked for group offsets by name: they count even where the engine keeps its own positions. */
    private final boolean groupOffsetsAsked;
    private final ZoneId zone;
    private final Map<MessageQueue, RocketMqShardReader> readers = new ConcurrentHashMap<>();

    private volatile GroupConsumer consumer;
    private volatile ShardListener listener;
    private volatile boolean running;
    private Thread poller;
    /** The topic did not exist when the source started; the poller waits for it (written by the poller then). */
    private volatile boolean awaitingTopic;

    RocketMqSource(RocketMqOptions options, ConnectorContext context) {
        this.options = options;
        this.context = context;
        this.group = options.consumerGroup();
        this.subscription = options.subscription();
        this.mode = options.startupMode();
        this.groupOffsetsAsked = mode == RocketMqOptions.StartupMode.GROUP_OFFSETS && options.startupModeSet();
        this.zone = LocalTimeZone.of(context.job());
        // Validate everything that can be validated before any connection is made.
        if (mode == RocketMqOptions.StartupMode.TIMESTAMP) {
            options.startupTimestamp(zone);
        } else if (mode == RocketMqOptions.StartupMode.SPECIFIC_OFFSET && options.startOffset() < 0) {
            throw options.error("scan.startup.mode 'specific-offset' needs 'startMessageOffset' (a queue offset >= 0)");
        }
        options.pullBatchSize();
        options.queueBufferSize();
        options.queueBufferBytes();
        newDecoder();
        metadataReaders();
    }

    @Override
    public boolean isBounded() {
        return false;
    }

    @Override
    public void start(ShardListener listener) throws Exception {
        this.listener = listener;
        GroupConsumer c = new GroupConsumer(group, options.namesrv, options.clientInstanceName("consumer"),
                options.rpcHook, options.pullBatchSize(), options.pullThreads());
        try {
            c.subscribe(options.topic, subscription, this::queuesChanged);
        } catch (MQClientException e) {
            throw options.error("cannot subscribe to topic '" + options.topic + "' with tag expression '"
                    + subscription + "': " + e.getErrorMessage());
        }
        // Ready for the first rebalance, which may come as soon as the consumer starts.
        this.consumer = c;
        running = true;
        try {
            c.start();
        } catch (MQClientException e) {
            running = false;
            throw options.unavailable("cannot start the RocketMQ consumer (group " + group + ", name server "
                    + options.namesrv + "): " + e.getErrorMessage(), e);
        }
        try {
            logConsuming(c.consumer().fetchMessageQueues(options.topic));
        } catch (MQClientException e) {
            if (!MissingTopic.is(e)) {
                running = false;
                c.shutdown();
                throw options.unavailable("topic '" + options.topic + "' is not available on name server "
                        + options.namesrv + ": " + e.getErrorMessage(), e);
            }
            // rsqldb's users start jobs before their topics exist: wait for it (the poller looks every second).
            awaitingTopic = true;
            LOG.info("job={} table={}: topic {} does not exist yet on name server {}; waiting for it to be created",
                    options.job, options.table, options.topic, options.namesrv);
        }
        poller = new Thread(JobMdc.carrying(options.job, this::pollLoop),
                "rsql-rocketmq-poller-" + options.job.replace('/', '.') + "-" + options.table);
        poller.setDaemon(true);
        poller.start();
        // Rebalance at once instead of on the client's 20 s timer.
        c.rebalanceNow();
    }

    private void logConsuming(Collection<MessageQueue> queues) {
        LOG.info("job={} table={}: consuming topic {} ({} queues) as group {} from name server {}, tags '{}', "
                        + "start when no committed offset: {}", options.job, options.table, options.topic,
                queues.size(), group, options.namesrv, subscription, describeMode());
    }

    /** On the poller: once the awaited topic exists, reads its route and rebalances (instead of in 30 s). */
    private void checkTopicCreated() throws InterruptedException {
        try {
            consumer.client().updateTopicRouteInfoFromNameServer(options.topic);
            Collection<MessageQueue> queues = consumer.consumer().fetchMessageQueues(options.topic);
            awaitingTopic = false;
            logConsuming(queues);
            consumer.rebalanceNow();
        } catch (MQClientException e) {
            Thread.sleep(TOPIC_CHECK_MILLIS);
        }
    }

    /** The topic: queue offsets mean nothing in another one. */
    @Override
    public String identity() {
        return "topic " + options.topic;
    }

    @Override
    public List<String> allShardIds() throws Exception {
        List<String> ids = new ArrayList<>();
        for (MessageQueue q : consumer.consumer().fetchMessageQueues(options.topic)) {
            ids.add(RocketMqShardReader.shardId(q));
        }
        return ids;
    }

    private String describeMode() {
        switch (mode) {
            case TIMESTAMP:
                return "timestamp " + options.startupTimestamp(zone);
            case SPECIFIC_OFFSET:
                return "offset " + options.startOffset();
            case GROUP_OFFSETS:
                return "earliest (group-offsets)";
            default:
                return mode.name().toLowerCase();
        }
    }

    // ---- rebalancing ----

    /**
     * Called by the consumer's rebalance thread with this process's new share of the topic's queues. Revokes removed
     * queues from the engine (blocking until their tasks committed), positions and registers new ones, then lets the
     * client update its pull tasks, then announces the new readers.
     */
    private void queuesChanged(String topic, Set<MessageQueue> all, Set<MessageQueue> divided) {
        ShardListener l = listener;
        Set<MessageQueue> removed = new HashSet<>();
        for (MessageQueue q : readers.keySet()) {
            if (q.getTopic().equals(topic) && !divided.contains(q)) {
                removed.add(q);
            }
        }
        for (MessageQueue q : removed) {
            RocketMqShardReader r = readers.get(q);
            if (r == null) {
                continue;
            }
            r.revoke();
            LOG.info("job={} table={}: queue revoked: {} at offset {}; waiting for its task to commit", options.job,
                    options.table, r.description(), r.position());
            try {
                l.shardRevoked(r.shardId());
            } catch (RuntimeException e) {
                LOG.warn("job={} table={}: revoking {} failed", options.job, options.table, r.description(), e);
            }
            readers.remove(q, r);
            r.close();
        }
        List<RocketMqShardReader> added = new ArrayList<>();
        if (running) {
            for (MessageQueue q : divided) {
                if (readers.containsKey(q)) {
                    continue;
                }
                try {
                    OptionalLong checkpointed = l.checkpointedPosition(RocketMqShardReader.shardId(q));
                    long start = checkpointed.isPresent() ? checkpointed.getAsLong()
                            : GroupConsumer.withRetries(() -> startOffset(q, l.resumesCommittedOffsets()));
                    consumer.position(q, start);
                    RocketMqShardReader r = new RocketMqShardReader(this, q, start, newDecoder(), metadataReaders(),
                            options.queueBufferSize(), options.queueBufferBytes());
                    readers.put(q, r);
                    added.add(r);
                } catch (Exception e) {
                    // Not assigning it here leaves the queue unread; fail loudly instead.
                    LOG.error("job={} table={}: cannot position {} queue {}", options.job, options.table,
                            topic, q.getQueueId(), e);
                    l.sourceFailed(options.unavailable("cannot find where to start reading topic " + topic
                            + " queue " + q.getQueueId() + " (broker " + q.getBrokerName() + "): " + e.getMessage(), e));
                    return;
                }
            }
        }
        consumer.pull(topic, all, divided);
        for (RocketMqShardReader r : added) {
            LOG.info("job={} table={}: queue assigned: {} starting at offset {}", options.job, options.table,
                    r.description(), r.position());
        }
        if (!added.isEmpty()) {
            l.shardsAssigned(added);
        }
    }

    /**
     * The committed offset of the group (if the engine lets committed offsets count, or the table asked for them), or
     * where the startup mode says a queue without one starts.
     */
    private long startOffset(MessageQueue q, boolean resumeCommitted) throws Exception {
        Long committed = resumeCommitted || groupOffsetsAsked ? consumer.committedOffset(q) : null;
        if (committed != null) {
            return committed;
        }
        MQAdminImpl admin = consumer.client().getMQAdminImpl();
        switch (mode) {
            case LATEST:
                return admin.maxOffset(q);
            case TIMESTAMP:
                return admin.searchOffset(q, options.startupTimestamp(zone));
            case SPECIFIC_OFFSET: {
                long min = admin.minOffset(q);
                long max = admin.maxOffset(q);
                return Math.max(min, Math.min(max, options.startOffset()));
            }
            case EARLIEST:
            case GROUP_OFFSETS:
            default:
                return admin.minOffset(q);
        }
    }

    // ---- polling ----

    private void pollLoop() {
        while (running) {
            try {
                if (awaitingTopic) {
                    checkTopicCreated();
                    continue;
                }
                List<MessageExt> messages = consumer.consumer().poll(POLL_TIMEOUT_MS);
                if (messages.isEmpty()) {
                    continue;
                }
                RocketMqShardReader r = readerFor(messages.get(0));
                if (r != null) {
                    r.offer(messages);
                }
            } catch (IllegalStateException e) {
                if (running) {
                    LOG.error("job={} table={}: the RocketMQ consumer stopped", options.job, options.table, e);
                    running = false;
                    listener.sourceFailed(options.error("the RocketMQ consumer stopped: " + e.getMessage()));
                }
            } catch (RuntimeException e) {
                LOG.warn("job={} table={}: polling failed; retrying", options.job, options.table, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private RocketMqShardReader readerFor(MessageExt msg) {
        String broker = msg.getBrokerName();
        if (broker != null) {
            return readers.get(new MessageQueue(msg.getTopic(), broker, msg.getQueueId()));
        }
        for (Map.Entry<MessageQueue, RocketMqShardReader> e : readers.entrySet()) {
            MessageQueue q = e.getKey();
            if (q.getQueueId() == msg.getQueueId() && q.getTopic().equals(msg.getTopic())) {
                return e.getValue();
            }
        }
        return null;
    }

    // ---- called by readers ----

    void pause(MessageQueue q) {
        GroupConsumer c = consumer;
        if (c != null) {
            c.consumer().pause(List.of(q));
        }
    }

    void resume(MessageQueue q) {
        GroupConsumer c = consumer;
        if (c != null) {
            c.consumer().resume(List.of(q));
        }
    }

    /** Stores {@code offset} as the group's offset of the reader's queue on the broker; returns once it is stored. */
    void commit(RocketMqShardReader reader, long offset) throws Exception {
        GroupConsumer c = consumer;
        if (c == null) {
            throw new IllegalStateException("the consumer of table " + options.table + " is not running");
        }
        MessageQueue q = reader.queue();
        if (!reader.isRevoked() && !reader.isClosed()) {
            // Keep the client's in-memory copy equal to the broker's.
            c.position(q, offset);
        }
        c.commit(q, offset);
    }

    void readerClosed(RocketMqShardReader reader) {
        readers.remove(reader.queue(), reader);
    }

    private RowDecoder newDecoder() {
        TableSchema schema = context.table().schema();
        return context.createDecoder(options.defaultFormat(), schema.physicalRowType(), schema.physicalPositions(),
                schema.columns().size());
    }

    private MessageMetadata.Reader[] metadataReaders() {
        List<Column> columns = context.table().schema().columns();
        List<MessageMetadata.Reader> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (c.isMetadata() && !FormatMetadata.isFormatKey(c.metadataKey())) {
                out.add(new MessageMetadata.Reader(i, c, zone));
            }
        }
        return out.toArray(new MessageMetadata.Reader[0]);
    }

    @Override
    public void close() {
        running = false;
        Thread p = poller;
        if (p != null) {
            try {
                p.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (RocketMqShardReader r : new ArrayList<>(readers.values())) {
            r.close();
        }
        GroupConsumer c = consumer;
        if (c != null) {
            c.shutdown();
            LOG.info("job={} table={}: consumer of group {} shut down", options.job, options.table, group);
        }
    }
}
