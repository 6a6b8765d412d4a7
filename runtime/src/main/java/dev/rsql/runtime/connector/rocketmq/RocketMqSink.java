package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkStage;
import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.rocketmq.QueueRangeReader;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl;
import org.apache.rocketmq.client.impl.producer.TopicPublishInfo;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The writable side of a RocketMQ topic: one producer per sink table, shared by the writers of all tasks. See
 * {@link RocketMqSinkWriter} for batching, ordering and acknowledgement.
 *
 * <p>When the job is transactional ({@link dev.rsql.runtime.connector.JobInfo#sinkTransactions()} not null) the
 * producer is a {@link TransactionMQProducer} in group {@code rsql_<job>_<table>_tx}, the same in every process of the
 * job. By default writers of tasks that checkpoint keep a checkpoint's rows with it and publish them once it is
 * recorded ({@link RocketMqStagedSinkWriter}). With {@code sink.transaction.mode = 'half-messages'} they send half
 * messages ({@link RocketMqTransactionalSinkWriter}) and commit them at checkpoints ({@link HalfMessageCommitter});
 * each task's halves name the task's own group, registered where the task runs ({@link TaskProducerGroups}), so that
 * the broker sends the checks of halves the task left open (at a crash, or older than the commit window) to the
 * process running it. {@link RocketMqTransactionCheck} answers them from the job. Staging writers register their
 * task's group too: halves a run in the other mode left open are still answered.
 */
final class RocketMqSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqSink.class);
    private static final long QUEUE_REFRESH_MILLIS = 30_000;
    /** RocketMQ's broker defaults for transactionTimeOut and transactionOpBatchInterval. */
    private static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 6_000;
    private static final long DEFAULT_OP_BATCH_INTERVAL_MS = 3_000;

    final RocketMqOptions options;
    final ConnectorContext context;
    final RowType physicalType;
    final int[] physicalPositions;
    final int keyMetadata;        // position of a metadata column 'keys', or -1
    final int tagMetadata;        // position of a metadata column 'tag', or -1
    final int[] propertyColumns;  // positions of writable user-property metadata columns
    final String[] propertyNames;
    final int propertiesMap;      // position of a MAP metadata column 'properties', or -1
    final int[] keyColumns;       // option sink.key-columns
    final int tagColumn;          // option sink.tag-column, or -1
    final String constantTag;
    final int batchSize;
    final int batchBytes;
    final int maxPending;
    final long flushTimeoutMillis;
    final long retryTimeoutMillis;
    private volatile ScheduledExecutorService retryTimer;
    final int sendTimeoutMillis;
    final int maxInFlight;          // transactional: half messages in flight per writer
    final boolean stagesTransactions;
    final long publishTimeoutMillis;  // staging writers: to publish a checkpoint's rows
    private QueueRangeReader publishedReader;   // staging writers' recoveries: created on the first
    private final boolean coalescesUpserts;
    private final SinkTransactions transactions;
    private final HalfMessageCommitter committer;   // null unless transactional
    private final UnendedHalves unended = new UnendedHalves();
    private final TaskProducerGroups taskGroups;   // null unless transactional
    private final DefaultMQProducer producer;
    private volatile List<MessageQueue> queues;
    private volatile long queuesFetchedAt;

    /**
     * Checks what the constructor reads from the options, without starting a producer: for
     * {@link RocketMqConnectorFactory#validateSink}.
     */
    static void validate(RocketMqOptions options, ConnectorContext context) {
        RowType rowType = context.table().schema().rowType();
        keyColumns(options, rowType);
        tagColumn(options, rowType);
        options.sinkBatchSize();
        options.sinkBatchBytes();
        options.maxPendingMessages();
        options.flushTimeout();
        options.retryTimeout();
        options.sendTimeoutMillis();
        options.sendRetries();
        options.transactionMaxInFlight();
        options.transactionCommitWindow();
        options.stagesTransactions();
        options.transactionPublishTimeout();
        options.producerGroup();
        context.createEncoder(options.defaultFormat(), context.table().schema().physicalRowType());
    }

    private static int[] keyColumns(RocketMqOptions options, RowType rowType) {
        List<String> keyCols = options.keyColumns();
        int[] columns = new int[keyCols.size()];
        for (int i = 0; i < keyCols.size(); i++) {
            int idx = rowType.indexOf(keyCols.get(i));
            if (idx < 0) {
                throw options.error(RocketMqOptions.KEY_COLUMNS, "option 'sink.key-columns' names column '"
                        + keyCols.get(i) + "', which is not a column of the table " + rowType);
            }
            columns[i] = idx;
        }
        return columns;
    }

    private static int tagColumn(RocketMqOptions options, RowType rowType) {
        String tagCol = options.tagColumn();
        int column = tagCol == null ? -1 : rowType.indexOf(tagCol);
        if (tagCol != null && column < 0) {
            throw options.error(RocketMqOptions.TAG_COLUMN, "option 'sink.tag-column' names column '" + tagCol
                    + "', which is not a column of the table " + rowType);
        }
        return column;
    }

    RocketMqSink(RocketMqOptions options, ConnectorContext context) {
        this.options = options;
        this.context = context;
        TableSchema schema = context.table().schema();
        this.physicalType = schema.physicalRowType();
        this.physicalPositions = schema.physicalPositions();
        RowType rowType = schema.rowType();
        List<Column> columns = schema.columns();
        int keyMeta = -1;
        int tagMeta = -1;
        int propsMap = -1;
        List<Integer> props = new ArrayList<>();
        List<String> propNames = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!c.isMetadata() || c.isVirtual()) {
                continue;
            }
            MessageMetadata.Attribute a = MessageMetadata.attributeOf(c.metadataKey());
            if (a == MessageMetadata.Attribute.KEYS) {
                keyMeta = i;
            } else if (a == MessageMetadata.Attribute.TAG) {
                tagMeta = i;
            } else if (a == MessageMetadata.Attribute.PROPERTIES) {
                propsMap = i;
            } else if (a == MessageMetadata.Attribute.USER_PROPERTY) {
                props.add(i);
                propNames.add(MessageMetadata.propertyName(c.metadataKey()));
            }
            // Other attributes (offsets, ids, timestamps) are assigned by the broker: not written.
        }
        this.keyMetadata = keyMeta;
        this.tagMetadata = tagMeta;
        this.propertiesMap = propsMap;
        this.propertyColumns = props.stream().mapToInt(Integer::intValue).toArray();
        this.propertyNames = propNames.toArray(new String[0]);
        this.keyColumns = keyColumns(options, rowType);
        this.tagColumn = tagColumn(options, rowType);
        this.constantTag = options.constantTag();
        this.batchSize = options.sinkBatchSize();
        this.batchBytes = options.sinkBatchBytes();
        this.maxPending = options.maxPendingMessages();
        this.flushTimeoutMillis = options.flushTimeout().toMillis();
        this.retryTimeoutMillis = options.retryTimeout().toMillis();
        this.sendTimeoutMillis = options.sendTimeoutMillis();
        this.transactions = context.job().sinkTransactions();
        this.maxInFlight = options.transactionMaxInFlight();
        this.stagesTransactions = options.stagesTransactions();
        this.publishTimeoutMillis = options.transactionPublishTimeout().toMillis();
        // Under mini-batch, a transactional writer sends only the last change per primary key of a checkpoint.
        this.coalescesUpserts = schema.primaryKeyIndices().length > 0
                && context.job().config().getBoolean(false, "table.exec.mini-batch.enabled");
        // Fail on a format problem now rather than in the first task.
        context.createEncoder(options.defaultFormat(), physicalType);

        String group = transactions == null ? options.producerGroup() : options.transactionalProducerGroup();
        DefaultMQProducer p;
        if (transactions == null) {
            p = options.rpcHook == null ? new DefaultMQProducer(group) : new DefaultMQProducer(group, options.rpcHook);
            p.setRetryTimesWhenSendFailed(options.sendRetries());
            p.setRetryTimesWhenSendAsyncFailed(options.sendRetries());
            this.taskGroups = null;
        } else {
            TransactionMQProducer tp = options.rpcHook == null ? new TransactionMQProducer(group)
                    : new TransactionMQProducer(group, options.rpcHook);
            RocketMqTransactionCheck check = new RocketMqTransactionCheck(transactions, half -> isStored(tp, half),
                    unended, group, options.job, options.table);
            tp.setTransactionListener(check);
            this.taskGroups = new TaskProducerGroups(options, group, check);
            // The client would resend a half whose send timed out, though it may be stored: the writer retries
            // only refusals.
            tp.setRetryTimesWhenSendFailed(0);
            tp.setRetryTimesWhenSendAsyncFailed(0);
            p = tp;
        }
        onSinkClient(options, p).setSendMsgTimeout(sendTimeoutMillis);
        try {
            p.start();
        } catch (MQClientException e) {
            throw options.unavailable("cannot start a RocketMQ producer (group " + group + ", name server "
                    + options.namesrv + "): " + e.getErrorMessage(), e);
        }
        this.producer = p;
        try {
            refreshQueues();
        } catch (RuntimeException e) {
            p.shutdown();
            throw e;
        }
        if (transactions == null) {
            this.committer = null;
            LOG.info("job={} table={}: writing topic {} ({} queues) as producer group {} via name server {}",
                    options.job, options.table, options.topic, queues.size(), group, options.namesrv);
        } else {
            // The broker sends transaction checks only to producers registered with it, and the client registers
            // (heartbeat, every 30 s) only with brokers it has a route to, which it gets on its first send: the
            // tasks' groups (TaskProducerGroups) register through this client as soon as their writers open, and
            // halves of the sink's own group (written by versions before those) are answered here.
            MQClientInstance client = p.getDefaultMQProducerImpl().getMqClientFactory();
            client.updateTopicRouteInfoFromNameServer(options.topic);
            client.sendHeartbeatToAllBrokerWithLock();
            Duration window = options.transactionCommitWindow();
            long commitWindowMillis = window != null ? window.toMillis() : commitWindowOfBrokers(client);
            this.committer = new HalfMessageCommitter(this, commitWindowMillis, unended);
            LOG.info("job={} table={}: writing topic {} ({} queues) transactionally as producer group {} via name "
                    + "server {} (commit window {} ms)", options.job, options.table, options.topic, queues.size(),
                    group, options.namesrv, commitWindowMillis);
        }
    }

    /**
     * How long after sending a half message the sink may still end it itself: a broker's check starts copying an open
     * half once it is transactionTimeOut old and sees an end up to transactionOpBatchInterval late, and a half the
     * check copied would be committed twice (see {@link HalfMessageCommitter}). A check round also works from end
     * records it read when it began, which under load was seen to be seconds earlier. So: half of the smallest
     * transactionTimeOut minus transactionOpBatchInterval of the topic's brokers; RocketMQ's defaults (6 s, 3 s) for
     * a broker whose configuration cannot be read.
     */
    private long commitWindowOfBrokers(MQClientInstance client) {
        long window = (DEFAULT_TRANSACTION_TIMEOUT_MS - DEFAULT_OP_BATCH_INTERVAL_MS) / 2;
        TopicRouteData route = client.getTopicRouteTable().get(options.topic);
        if (route == null) {
            return window;
        }
        window = Long.MAX_VALUE;
        for (BrokerData broker : route.getBrokerDatas()) {
            String addr = broker.getBrokerAddrs().get(MixAll.MASTER_ID);
            long timeout = DEFAULT_TRANSACTION_TIMEOUT_MS;
            long opBatch = DEFAULT_OP_BATCH_INTERVAL_MS;
            try {
                Properties config = client.getMQClientAPIImpl().getBrokerConfig(addr, sendTimeoutMillis);
                timeout = Long.parseLong(config.getProperty("transactionTimeOut", String.valueOf(timeout)));
                opBatch = Long.parseLong(config.getProperty("transactionOpBatchInterval", String.valueOf(opBatch)));
            } catch (Exception e) {
                LOG.warn("job={} table={}: cannot read the configuration of broker {} ({}); assuming RocketMQ's "
                        + "transaction defaults", options.job, options.table, broker.getBrokerName(), e.toString());
            }
            window = Math.min(window, (timeout - opBatch) / 2);
        }
        return Math.max(500, window);
    }

    /**
     * Puts a producer on the sink's client instance (name server, instance name), whose connections and threads the
     * sink's producers share.
     */
    static <P extends DefaultMQProducer> P onSinkClient(RocketMqOptions options, P producer) {
        producer.setNamesrvAddr(options.namesrv);
        producer.setInstanceName(options.clientInstanceName("producer"));
        return producer;
    }

    /** The producer groups of the writer tasks running here; transactional sinks only. */
    TaskProducerGroups taskGroups() {
        return taskGroups;
    }

    DefaultMQProducer producer() {
        return producer;
    }

    HalfMessageCommitter committer() {
        return committer;
    }

    /** The topic's writable queues in a stable order (by broker, then queue id), refreshed now and then. */
    List<MessageQueue> queues() {
        if (System.currentTimeMillis() - queuesFetchedAt > QUEUE_REFRESH_MILLIS) {
            try {
                refreshQueues();
            } catch (RuntimeException e) {
                LOG.warn("job={} table={}: cannot refresh the queues of topic {}; keeping {}", options.job,
                        options.table, options.topic, queues.size(), e);
                queuesFetchedAt = System.currentTimeMillis();
            }
        }
        return queues;
    }

    private synchronized void refreshQueues() {
        List<MessageQueue> found;
        try {
            found = new ArrayList<>(producer.fetchPublishMessageQueues(options.topic));
        } catch (MQClientException e) {
            found = autoCreateQueues();
            if (found.isEmpty()) {
                throw options.unavailable("topic '" + options.topic + "' is not available on name server "
                        + options.namesrv + " (and no broker creates topics automatically): " + e.getErrorMessage(), e);
            }
            if (queues == null) {
                LOG.info("job={} table={}: topic {} does not exist yet; a broker with autoCreateTopicEnable creates "
                        + "it with {} queues on the first message", options.job, options.table, options.topic,
                        found.size());
            }
        }
        if (found.isEmpty()) {
            throw options.error("topic '" + options.topic + "' has no writable queue");
        }
        found.sort(Comparator.comparing(MessageQueue::getBrokerName).thenComparingInt(MessageQueue::getQueueId));
        queues = List.copyOf(found);
        queuesFetchedAt = System.currentTimeMillis();
    }

    /**
     * The queues the producer would use for a topic that does not exist yet: those of the brokers that create topics
     * on first use (RocketMQ's {@code TBW102} route, capped at the producer's default of 4 queues), as the client
     * itself does when sending to an unknown topic.
     */
    private List<MessageQueue> autoCreateQueues() {
        try {
            DefaultMQProducerImpl impl = producer.getDefaultMQProducerImpl();
            impl.getMqClientFactory().updateTopicRouteInfoFromNameServer(options.topic, true, producer);
            TopicPublishInfo info = impl.getTopicPublishInfoTable().get(options.topic);
            return info == null || !info.ok() ? List.of() : new ArrayList<>(info.getMessageQueueList());
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** Whether transactional writers coalesce a key's changes per checkpoint ({@link CoalescedUpserts}). */
    boolean coalescesUpserts() {
        return coalescesUpserts;
    }

    RowType rowType() {
        return context.table().schema().rowType();
    }

    int[] primaryKey() {
        return context.table().schema().primaryKeyIndices();
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext writerContext) throws Exception {
        RowEncoder encoder = context.createEncoder(options.defaultFormat(), physicalType);
        // Tasks of a transactional job that write before any exchange have no checkpoint to commit with: their rows
        // are sent at once (at-least-once).
        if (transactions == null || writerContext.transactionId() == null) {
            return new RocketMqSinkWriter(this, encoder, writerContext, false);
        }
        SinkStage stage = stagesTransactions ? writerContext.sinkStage(options.table) : null;
        return stage == null ? new RocketMqTransactionalSinkWriter(this, encoder, writerContext)
                : new RocketMqStagedSinkWriter(this, encoder, writerContext, stage);
    }

    /** Reads the topic's queues for staging writers that look for rows published before a restore. */
    synchronized QueueRangeReader publishedReader() throws IOException {
        if (publishedReader == null) {
            Duration timeout = Duration.ofMillis(sendTimeoutMillis);
            publishedReader = new QueueRangeReader(options.namesrv, options.transactionalProducerGroup(),
                    options.clientInstanceName("reader"), options.rpcHook, timeout,
                    Duration.ofMillis(retryTimeoutMillis));
        }
        return publishedReader;
    }

    @Override
    public void close() {
        ScheduledExecutorService timer = retryTimer;
        if (timer != null) {
            timer.shutdownNow();
        }
        if (taskGroups != null) {
            taskGroups.close();
        }
        synchronized (this) {
            if (publishedReader != null) {
                publishedReader.close();
            }
        }
        producer.shutdown();
    }

    /** Schedules the re-sends of batches that hit a transient failure; created on the first retry. */
    ScheduledExecutorService retryTimer() {
        ScheduledExecutorService timer = retryTimer;
        if (timer == null) {
            synchronized (this) {
                timer = retryTimer;
                if (timer == null) {
                    timer = Executors.newSingleThreadScheduledExecutor(r -> {
                        Thread t = new Thread(r, "rsql-rocketmq-sink-retry-" + options.table);
                        t.setDaemon(true);
                        return t;
                    });
                    retryTimer = timer;
                }
            }
        }
        return timer;
    }

    /** Whether the message of a half the broker checks is in its topic: looked up by the half's unique key. */
    private static boolean isStored(DefaultMQProducer producer, MessageExt half) throws Exception {
        String key = half.getProperty(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX);
        try {
            return producer.getDefaultMQProducerImpl().getMqClientFactory().getMQAdminImpl()
                    .queryMessageByUniqKey(half.getTopic(), key) != null;
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.NO_MESSAGE) {
                return false;
            }
            throw e;
        }
    }
}
