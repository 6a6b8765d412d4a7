package dev.rsql.runtime.rocketmq;

import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.MessageQueueListener;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.store.OffsetStore;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.client.consumer.store.RemoteBrokerOffsetStore;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.exception.OffsetNotFoundException;
import org.apache.rocketmq.client.impl.FindBrokerResult;
import org.apache.rocketmq.client.impl.MQClientManager;
import org.apache.rocketmq.client.impl.consumer.DefaultLitePullConsumerImpl;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.exception.RemotingException;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link DefaultLitePullConsumer} in a consumer group: RocketMQ's client-side rebalancing shares the subscribed
 * topic's queues among the processes of the group, and the owner of this object decides which of its queues the
 * client pulls ({@link #pull}) and from where ({@link #position}).
 *
 * <p>A queue's start is put into the client's offset store before its pull task starts, so the first pull already
 * begins there; the client's {@code seek} is not used because it interrupts pull threads, and an interrupted pull can
 * close the client's shared broker connection. Offsets reach the broker only through {@link #commit}, synchronously:
 * the client's own offset persistence (on a timer, when a queue is rebalanced away, at shutdown) is switched off so
 * it cannot write an older in-memory value over a commit.
 */
public final class GroupConsumer {

    private static final long POLL_TIMEOUT_MS = 100;
    private static final int REQUEST_TIMEOUT_MS = 5_000;
    /**
     * How long the broker holds a pull of a caught-up queue. The lite-pull client pulls synchronously, so a held pull
     * occupies one of its pull threads ({@link #pull} gives every queue one). New messages still answer a held pull
     * at once.
     */
    private static final long LONG_POLL_MILLIS = 2_000;

    private final String group;
    private final DefaultLitePullConsumer consumer;
    private final MQClientInstance client;
    private MessageQueueListener pullTasks;   // the client's own listener: starts and stops pull tasks
    private final int pullThreads;
    private ScheduledThreadPoolExecutor pullPool;   // the client's, once started; guarded by this
    /** Queues whose offset the broker was seen to hold after a commit (see {@link #confirmFirstCommit}). */
    private final Set<MessageQueue> confirmed = ConcurrentHashMap.newKeySet();

    /** {@code pullThreads}: the client's pull threads at least; {@link #pull} adds threads up to one per queue. */
    public GroupConsumer(String group, String namesrv, String instanceName, RPCHook hook, int pullBatchSize,
                         int pullThreads) {
        this.group = group;
        this.pullThreads = pullThreads;
        DefaultLitePullConsumer c = new LitePullConsumer(group, hook);
        c.setNamesrvAddr(namesrv);
        c.setInstanceName(instanceName);
        c.setAutoCommit(false);
        c.setPullBatchSize(pullBatchSize);
        c.setPullThreadNums(pullThreads);
        c.setConsumerTimeoutMillisWhenSuspend(LONG_POLL_MILLIS + REQUEST_TIMEOUT_MS);
        c.setPollTimeoutMillis(POLL_TIMEOUT_MS);
        c.setAllocateMessageQueueStrategy(new DistinctMembers(new AllocateMessageQueueAveragely()));
        // The client instance the consumer will use (same client id), created now so that the offset store can be
        // installed before start.
        this.client = MQClientManager.getInstance().getOrCreateMQClientInstance(c, hook);
        c.setOffsetStore(new CommitOnlyOffsetStore(new RemoteBrokerOffsetStore(client, group)));
        this.consumer = c;
    }

    public String group() {
        return group;
    }

    /** The consumer, for settings before {@link #start} and for polling, pausing and resuming queues. */
    public DefaultLitePullConsumer consumer() {
        return consumer;
    }

    public MQClientInstance client() {
        return client;
    }

    /**
     * Subscribes to {@code topic}; {@code listener} is called by the client's rebalance thread with this process's
     * share of the queues, and decides with {@link #pull} which of them are pulled.
     */
    public void subscribe(String topic, String expression, MessageQueueListener listener) throws MQClientException {
        consumer.subscribe(topic, expression);
        pullTasks = consumer.getMessageQueueListener();
        consumer.setMessageQueueListener(listener);
    }

    /**
     * From now on pulls exactly {@code queues} of {@code topic} (a queue added starts at its {@link #position}), with
     * at least one pull thread per queue. The client's pull of a caught-up queue waits at the broker for up to
     * {@link #LONG_POLL_MILLIS} on a pull thread, and each queue's next pull waits for a free thread: with fewer
     * threads than queues, the idle queues' waits left a queue with a backlog a pull every few seconds (8 queues read
     * by 4 threads: 42k-64k messages/s instead of 280k-390k, as soon as most queues had caught up).
     */
    public synchronized void pull(String topic, Set<MessageQueue> all, Set<MessageQueue> queues) {
        ScheduledThreadPoolExecutor pool = pullPool();
        int threads = Math.max(pullThreads, queues.size());
        if (pool.getCorePoolSize() < threads) {
            pool.setCorePoolSize(threads);
        }
        pullTasks.messageQueueChanged(topic, all, queues);
    }

    /** The client's pool of pull threads (it has no accessor; the consumer creates it first thing when it starts). */
    private ScheduledThreadPoolExecutor pullPool() {
        if (pullPool == null) {
            try {
                Field f = DefaultLitePullConsumerImpl.class.getDeclaredField("scheduledThreadPoolExecutor");
                f.setAccessible(true);
                pullPool = (ScheduledThreadPoolExecutor) f.get(impl());
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new IllegalStateException("this RocketMQ client's lite-pull consumer has no pull thread pool"
                        + " to size", e);
            }
        }
        return pullPool;
    }

    /** The client's side of the consumer, registered with the client instance when the consumer starts. */
    private DefaultLitePullConsumerImpl impl() {
        DefaultLitePullConsumerImpl impl = (DefaultLitePullConsumerImpl) client.selectConsumer(group);
        if (impl == null) {
            throw new IllegalStateException("the consumer of group " + group + " has not started");
        }
        return impl;
    }

    /** Where the next pull task of {@code queue} starts: call before {@link #pull} adds it. */
    public void position(MessageQueue queue, long offset) {
        consumer.getOffsetStore().updateOffset(queue, offset, false);
    }

    public void start() throws MQClientException {
        consumer.start();
        // A queue the client starts pulling takes the rebalancer's process queue for it when there is one. After
        // pull() dropped a queue and added it again (a task restarting at another offset), that is the process queue
        // the drop marked dropped, so the new pull task ends at once and the queue is never read again. Without the
        // rebalancer each added queue gets a fresh process queue; the rebalancer still revokes through our listener.
        impl().getAssignedMessageQueue().setRebalanceImpl(null);
    }

    /** Registers with the brokers (the first rebalance needs the group's member list) and rebalances at once. */
    public void rebalanceNow() {
        client.sendHeartbeatToAllBrokerWithLock();
        client.rebalanceImmediately();
    }

    /** The offset the group committed for the queue on its broker, or null when it never committed one. */
    public Long committedOffset(MessageQueue q) throws Exception {
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
        // Without it the broker answers 0 for a new group while the queue is in memory, hiding a missing offset.
        header.setSetZeroIfNotFound(false);
        try {
            long offset = client.getMQClientAPIImpl().queryConsumerOffset(broker.getBrokerAddr(), header,
                    REQUEST_TIMEOUT_MS);
            return offset >= 0 ? offset : null;
        } catch (OffsetNotFoundException e) {
            return null;
        }
    }

    /** Stores {@code offset} as the group's offset of the queue on the broker; returns once it is stored. */
    public void commit(MessageQueue queue, long offset) throws Exception {
        if (confirmed.contains(queue)) {
            store(queue, offset);
            return;
        }
        synchronized (confirmed) {
            store(queue, offset);
            confirmFirstCommit(queue, offset);
        }
    }

    private void store(MessageQueue queue, long offset) throws Exception {
        withRetries(() -> {
            consumer.getOffsetStore().updateConsumeOffsetToBroker(queue, offset, false);
            return null;
        });
    }

    /**
     * The 5.3.3 broker creates a group's offset table of a topic on its first commit without a lock
     * (ConsumerOffsetManager.commitOffset: get, and put a new table when there is none): two first commits of
     * different queues at once both create one, and the table put last replaces the other with that queue's offset.
     * So the first commits of this process go one at a time (no race among its own tasks), and each is read back and
     * made again while the broker has no offset for the queue (another process's first commit raced with it).
     */
    private void confirmFirstCommit(MessageQueue queue, long offset) throws Exception {
        for (int attempt = 1; committedOffset(queue) == null; attempt++) {
            if (attempt == 3) {
                throw new MQClientException("the broker keeps no offset of group " + group + " for " + queue
                        + " after 3 commits", null);
            }
            store(queue, offset);
        }
        confirmed.add(queue);
    }

    public void shutdown() {
        consumer.shutdown();
    }

    /** A request to a broker. */
    public interface BrokerCall<T> {
        T call() throws Exception;
    }

    /** Retries a broker request twice after a short pause: a rebalance or commit should survive a transient hiccup. */
    public static <T> T withRetries(BrokerCall<T> call) throws Exception {
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
                if (attempt < 2) {
                    LockSupport.parkNanos(200_000_000L * (attempt + 1));
                }
            }
        }
        throw first;
    }

    /**
     * Shares the queues among the distinct members of the group. The broker lists a member once per connection it
     * holds from it, and after the broker was frozen (SIGSTOP, a long GC pause) it holds several from one client for
     * minutes: the client's reconnects queued up meanwhile. Counted as several members, that client would take only
     * its share of a bigger group, and the queues of the phantom members would go unread until the stale connections
     * expire.
     */
    private static final class DistinctMembers implements AllocateMessageQueueStrategy {
        private final AllocateMessageQueueStrategy delegate;

        DistinctMembers(AllocateMessageQueueStrategy delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<MessageQueue> allocate(String consumerGroup, String currentCID, List<MessageQueue> mqAll,
                                           List<String> cidAll) {
            return delegate.allocate(consumerGroup, currentCID, mqAll, new ArrayList<>(new TreeSet<>(cidAll)));
        }

        @Override
        public String getName() {
            return delegate.getName();
        }
    }

    /** The lite-pull consumer with a shorter broker-side hold for pulls of caught-up queues. */
    private static final class LitePullConsumer extends DefaultLitePullConsumer {
        LitePullConsumer(String group, RPCHook hook) {
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
     * and possibly overwriting newer commits. Reads, the in-memory copy and explicit broker updates pass through.
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
            // Offsets are persisted by GroupConsumer.commit only.
        }

        @Override
        public void persist(MessageQueue mq) {
            // Offsets are persisted by GroupConsumer.commit only.
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
}
