package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.MessageQueueListener;
import org.apache.rocketmq.client.consumer.store.OffsetStore;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.client.consumer.store.RemoteBrokerOffsetStore;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.OffsetNotFoundException;
import org.apache.rocketmq.client.impl.FindBrokerResult;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
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
 * The readable side of a RocketMQ topic: one {@link DefaultLitePullConsumer} per source table, subscribed in the
 * table's consumer group so that every process running the job gets a share of the queues (RocketMQ's client-side
 * rebalancing). Each queue assigned here becomes a {@link RocketMqShardReader} announced to the engine; a queue taken
 * away is revoked from the engine first (its task finishes, flushes and commits) and dropped afterwards.
 *
 * <p>Offsets: where an assigned queue starts is decided here, not by the client's {@code consumeFromWhere}: the
 * group's committed offset on the broker if there is one (asked with {@code setZeroIfNotFound=false}, so the broker's
 * "new group reads from 0 while the queue is in memory" shortcut does not hide a missing offset), otherwise the
 * table's startup mode. The start is put into the consumer's offset store before its pull task starts, so the first
 * pull already begins there. Commits go straight to the broker, synchronously, with exactly the task's position; the
 * client's own periodic offset persistence is switched off so it cannot write an older in-memory value over them.
 */
final class RocketMqSource implements Source {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSource.class);
    private static final long POLL_TIMEOUT_MS = 100;
    private static final int REQUEST_TIMEOUT_MS = 5_000;
    /**
     * How long the broker holds a pull of a caught-up queue. The lite-pull client pulls synchronously, so a held pull
     * occupies one of its pull threads: RocketMQ's 20 s default lets a few idle queues starve the busy ones of a
     * process for 20 s. New messages still answer a held pull at once.
     */
    private static final long LONG_POLL_MILLIS = 2_000;

    private final RocketMqOptions options;
    private final ConnectorContext context;
    private final String group;
    private final String subscription;
    private final RocketMqOptions.StartupMode mode;
    private final ZoneId zone;
    private final Map<MessageQueue, RocketMqShardReader> readers = new ConcurrentHashMap<>();

    private volatile DefaultLitePullConsumer consumer;
    private volatile MQClientInstance client;
    private volatile ShardListener listener;
    private volatile boolean running;
    private Thread poller;

    RocketMqSource(RocketMqOptions options, ConnectorContext context) {
        this.options = options;
        this.context = context;
        this.group = options.consumerGroup();
        this.subscription = options.subscription();
        this.mode = options.startupMode();
        this.zone = zone(context);
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

    private static ZoneId zone(ConnectorContext context) {
        String z = context.job().config().get("table.local-time-zone", "timezone", "time-zone");
        if (z == null || z.isBlank() || z.equalsIgnoreCase("default")) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(z.trim());
        } catch (RuntimeException e) {
            return ZoneId.systemDefault();
        }
    }

    @Override
    public boolean isBounded() {
        return false;
    }

    @Override
    public void start(ShardListener listener) throws Exception {
        this.listener = listener;
        DefaultLitePullConsumer c = new LitePullConsumer(group, options.rpcHook);
        c.setNamesrvAddr(options.namesrv);
        c.setInstanceName(options.clientInstanceName("consumer"));
        c.setAutoCommit(false);
        c.setPullBatchSize(options.pullBatchSize());
        c.setPullThreadNums(options.pullThreads());
        c.setConsumerTimeoutMillisWhenSuspend(LONG_POLL_MILLIS + REQUEST_TIMEOUT_MS);
        c.setPollTimeoutMillis(POLL_TIMEOUT_MS);
        // The client instance the consumer will use (same client id), created now so that the offset store can be
        // installed before start: offsets reach the broker only through the tasks' synchronous commits.
        MQClientInstance instance = MQClientManager.getInstance().getOrCreateMQClientInstance(c, options.rpcHook);
        c.setOffsetStore(new CommitOnlyOffsetStore(new RemoteBrokerOffsetStore(instance, group)));
        try {
            c.subscribe(options.topic, subscription);
        } catch (MQClientException e) {
            throw options.error("cannot subscribe to topic '" + options.topic + "' with tag expression '"
                    + subscription + "': " + e.getErrorMessage());
        }
        MessageQueueListener internal = c.getMessageQueueListener();
        c.setMessageQueueListener((topic, all, divided) -> queuesChanged(internal, topic, all, divided));
        // Ready for the first rebalance, which may come as soon as the consumer starts.
        this.consumer = c;
        this.client = instance;
        running = true;
        try {
            c.start();
        } catch (MQClientException e) {
            running = false;
            throw options.error("cannot start the RocketMQ consumer (group " + group + ", name server "
                    + options.namesrv + "): " + e.getErrorMessage());
        }
        try {
            Collection<MessageQueue> queues = c.fetchMessageQueues(options.topic);
            LOG.info("job={} table={}: consuming topic {} ({} queues) as group {} from name server {}, tags '{}', "
                            + "start when no committed offset: {}", options.job, options.table, options.topic,
                    queues.size(), group, options.namesrv, subscription, describeMode());
        } catch (MQClientException e) {
            running = false;
            c.shutdown();
            throw options.error("topic '" + options.topic + "' is not available on name server " + options.namesrv
                    + ": " + e.getErrorMessage());
        }
        poller = new Thread(this::pollLoop, "rsql-rocketmq-poller-" + options.job.replace('/', '.') + "-"
                + options.table);
        poller.setDaemon(true);
        poller.start();
        // Register with the broker now (the first rebalance needs the group's member list) and rebalance at once
        // instead of on the client's 20 s timer.
        client.sendHeartbeatToAllBrokerWithLock();
        client.rebalanceImmediately();
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
    private void queuesChanged(MessageQueueListener internal, String topic, Set<MessageQueue> all,
                               Set<MessageQueue> divided) {
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
                    long start = checkpointed.isPresent() ? checkpointed.getAsLong() : withRetries(() -> startOffset(q));
                    consumer.getOffsetStore().updateOffset(q, start, false);
                    RocketMqShardReader r = new RocketMqShardReader(this, q, start, newDecoder(), metadataReaders(),
                            options.queueBufferSize(), options.queueBufferBytes());
                    readers.put(q, r);
                    added.add(r);
                } catch (Exception e) {
                    // Not assigning it here leaves the queue unread; fail loudly instead.
                    LOG.error("job={} table={}: cannot position {} queue {}", options.job, options.table,
                            topic, q.getQueueId(), e);
                    l.sourceFailed(options.error("cannot find where to start reading topic " + topic + " queue "
                            + q.getQueueId() + " (broker " + q.getBrokerName() + "): " + e.getMessage()));
                    return;
                }
            }
        }
        internal.messageQueueChanged(topic, all, divided);
        for (RocketMqShardReader r : added) {
            LOG.info("job={} table={}: queue assigned: {} starting at offset {}", options.job, options.table,
                    r.description(), r.position());
        }
        if (!added.isEmpty()) {
            l.shardsAssigned(added);
        }
    }

    interface BrokerCall<T> {
        T call() throws Exception;
    }

    /** Retries a broker request twice after a short pause: a rebalance or commit should survive a transient hiccup. */
    private static <T> T withRetries(BrokerCall<T> call) throws Exception {
        Exception first = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return call.call();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L * (attempt + 1));
            }
        }
        throw first;
    }

    /** The committed offset of the group, or where the startup mode says a queue without one starts. */
    private long startOffset(MessageQueue q) throws Exception {
        Long committed = committedOffset(q);
        if (committed != null) {
            return committed;
        }
        switch (mode) {
            case LATEST:
                return client.getMQAdminImpl().maxOffset(q);
            case TIMESTAMP:
                return client.getMQAdminImpl().searchOffset(q, options.startupTimestamp(zone));
            case SPECIFIC_OFFSET: {
                long min = client.getMQAdminImpl().minOffset(q);
                long max = client.getMQAdminImpl().maxOffset(q);
                return Math.max(min, Math.min(max, options.startOffset()));
            }
            case EARLIEST:
            case GROUP_OFFSETS:
            default:
                return client.getMQAdminImpl().minOffset(q);
        }
    }

    /** The offset the group committed for the queue on its broker, or null when it never committed one. */
    private Long committedOffset(MessageQueue q) throws Exception {
        FindBrokerResult broker = client.findBrokerAddressInSubscribe(q.getBrokerName(), MixAll.MASTER_ID, true);
        if (broker == null) {
            client.updateTopicRouteInfoFromNameServer(q.getTopic());
            broker = client.findBrokerAddressInSubscribe(q.getBrokerName(), MixAll.MASTER_ID, true);
        }
        if (broker == null) {
            throw new MQClientException("broker " + q.getBrokerName() + " is not in the route of topic "
                    + q.getTopic(), null);
        }
        QueryConsumerOffsetRequestHeader header = new QueryConsumerOffsetRequestHeader();
        header.setTopic(q.getTopic());
        header.setConsumerGroup(group);
        header.setQueueId(q.getQueueId());
        header.setBrokerName(q.getBrokerName());
        header.setSetZeroIfNotFound(false);
        try {
            long offset = client.getMQClientAPIImpl().queryConsumerOffset(broker.getBrokerAddr(), header,
                    REQUEST_TIMEOUT_MS);
            return offset >= 0 ? offset : null;
        } catch (OffsetNotFoundException e) {
            return null;
        }
    }

    // ---- polling ----

    private void pollLoop() {
        while (running) {
            try {
                List<MessageExt> messages = consumer.poll(POLL_TIMEOUT_MS);
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
        DefaultLitePullConsumer c = consumer;
        if (c != null) {
            c.pause(List.of(q));
        }
    }

    void resume(MessageQueue q) {
        DefaultLitePullConsumer c = consumer;
        if (c != null) {
            c.resume(List.of(q));
        }
    }

    /** Stores {@code offset} as the group's offset of the reader's queue on the broker; returns once it is stored. */
    void commit(RocketMqShardReader reader, long offset) throws Exception {
        DefaultLitePullConsumer c = consumer;
        if (c == null) {
            throw new IllegalStateException("the consumer of table " + options.table + " is not running");
        }
        OffsetStore store = c.getOffsetStore();
        MessageQueue q = reader.queue();
        if (!reader.isRevoked() && !reader.isClosed()) {
            // Keep the client's in-memory copy equal to the broker's: the client persists it when the queue is
            // rebalanced away and on shutdown.
            store.updateOffset(q, offset, false);
        }
        withRetries(() -> {
            store.updateConsumeOffsetToBroker(q, offset, false);
            return null;
        });
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
            if (c.isMetadata()) {
                out.add(new MessageMetadata.Reader(i, c, zone));
            }
        }
        return out.toArray(new MessageMetadata.Reader[0]);
    }

    /** The lite-pull consumer with a shorter broker-side hold for pulls of caught-up queues. */
    private static final class LitePullConsumer extends DefaultLitePullConsumer {
        LitePullConsumer(String group, org.apache.rocketmq.remoting.RPCHook hook) {
            super(group, hook);
        }

        @Override
        public long getBrokerSuspendMaxTimeMillis() {
            return LONG_POLL_MILLIS;
        }
    }

    /**
     * The client's offset store minus its own persistence: the client would otherwise write its in-memory offsets to
     * the broker (one-way, unacknowledged) on a timer, when a queue is rebalanced away and at shutdown, racing with
     * and possibly overwriting the tasks' newer commits. Reads, the in-memory copy and explicit broker updates pass
     * through.
     */
    private static final class CommitOnlyOffsetStore implements OffsetStore {
        private final OffsetStore delegate;

        CommitOnlyOffsetStore(OffsetStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public void load() throws MQClientException {
            delegate.load();
        }

        @Override
        public void updateOffset(MessageQueue mq, long offset, boolean increaseOnly) {
            delegate.updateOffset(mq, offset, increaseOnly);
        }

        @Override
        public void updateAndFreezeOffset(MessageQueue mq, long offset) {
            delegate.updateAndFreezeOffset(mq, offset);
        }

        @Override
        public long readOffset(MessageQueue mq, ReadOffsetType type) {
            return delegate.readOffset(mq, type);
        }

        @Override
        public void persistAll(Set<MessageQueue> mqs) {
            // Offsets are persisted by RocketMqSource.commit only.
        }

        @Override
        public void persist(MessageQueue mq) {
            // Offsets are persisted by RocketMqSource.commit only.
        }

        @Override
        public void removeOffset(MessageQueue mq) {
            delegate.removeOffset(mq);
        }

        @Override
        public Map<MessageQueue, Long> cloneOffsetTable(String topic) {
            return delegate.cloneOffsetTable(topic);
        }

        @Override
        public void updateConsumeOffsetToBroker(MessageQueue mq, long offset, boolean isOneway) throws RemotingException,
                MQBrokerException, InterruptedException, MQClientException {
            delegate.updateConsumeOffsetToBroker(mq, offset, isOneway);
        }
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
        DefaultLitePullConsumer c = consumer;
        if (c != null) {
            c.shutdown();
            LOG.info("job={} table={}: consumer of group {} shut down", options.job, options.table, group);
        }
    }
}
