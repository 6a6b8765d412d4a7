package dev.rsql.runtime.exec;

import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.exec.shuffle.ShuffleCheckpoint;
import dev.rsql.runtime.exec.shuffle.ShuffleInput;
import dev.rsql.runtime.exec.shuffle.ShuffleReader;
import dev.rsql.runtime.exec.shuffle.ShuffleTopic;
import dev.rsql.runtime.exec.shuffle.TopicProvisioner;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.rocketmq.RocketMqNames;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.changelog.ChangelogSettings;
import dev.rsql.runtime.state.changelog.RestoredState;
import dev.rsql.runtime.state.changelog.StateChangelogWriter;
import dev.rsql.runtime.state.changelog.StateQueueConflictException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The keyed stage after one exchange of a distributed job, in this process: the exchange's shuffle topic and state
 * topic (queue for queue), a {@link ShuffleReader} in the exchange's consumer group, and a {@link ShuffleTask} for
 * every shuffle queue the group assigns here. An assigned queue's task restores its state from its state queue and
 * only then starts reading, at the offset its commit record names; a revoked queue's task checkpoints and stops
 * before the rebalance goes on.
 */
final class ShuffleStage implements ShuffleReader.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(ShuffleStage.class);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How long a task that lost its state queue to another instance waits before checking who owns the queue. */
    private static final Duration RETAKE_DELAY = Duration.ofSeconds(2);
    private static final Duration MAX_DELAY = Duration.ofMinutes(1);

    private final DistributedJob job;
    private final ExchangeNode exchange;
    private final ShuffleTopic shuffle;
    private final ShuffleTopic stateTopic;
    private final Map<MessageQueue, ShuffleTask> byQueue = new ConcurrentHashMap<>();
    private final Map<String, RestoredState> restoring = new ConcurrentHashMap<>();
    private final Map<String, ShuffleCheckpoint> checkpoints = new ConcurrentHashMap<>();
    private Set<String> channels;
    private ShuffleReader reader;
    private Thread poller;
    private volatile boolean polling;
    private boolean stopped;   // guarded by this
    private final ScheduledExecutorService retakes;
    /** Stores the tasks' informational consumer offsets, off their threads (a round trip each). */
    private final ExecutorService offsets;
    private final Map<MessageQueue, Restarts> restarts = new ConcurrentHashMap<>();

    /** Provisions the exchange's shuffle and state topics. */
    ShuffleStage(DistributedJob job, ExchangeNode exchange, TopicProvisioner provisioner) throws Exception {
        this.job = job;
        this.exchange = exchange;
        int queues = exchange.isSinglePartition() ? 1 : job.shuffleOptions().queues();
        this.shuffle = provisioner.provision(ShuffleTopic.topicName(job.jobName(), exchange.id()), queues);
        this.stateTopic = provisioner.provision(stateTopicName(job.jobName(), exchange.id()), queues);
        this.retakes = Executors.newSingleThreadScheduledExecutor(r -> AbstractJob.daemon(
                JobMdc.carrying(job.jobName(), r), "rsql-"
                + job.jobName().replace('/', '.') + "-" + exchange.id() + "-retake"));
        this.offsets = Executors.newSingleThreadExecutor(r -> AbstractJob.daemon(
                JobMdc.carrying(job.jobName(), r), "rsql-"
                + job.jobName().replace('/', '.') + "-" + exchange.id() + "-offsets"));
    }

    /** The state topic of an exchange: {@code rsql_<job>_<exchange id>_state}. */
    static String stateTopicName(String job, String exchangeId) {
        return RocketMqNames.distinct("rsql_" + job + "_" + exchangeId + "_state", RocketMqNames.MAX_TOPIC_LENGTH);
    }

    /** The producer that appends to state queues: synchronous sends, each retried by the changelog itself. */
    static DefaultMQProducer startStateProducer(String namesrv, String job, String instanceId,
                                                ChangelogSettings settings) throws MQClientException {
        DefaultMQProducer producer = new DefaultMQProducer(
                RocketMqNames.distinct("rsql_" + job + "_state", RocketMqNames.MAX_GROUP_LENGTH));
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(RocketMqNames.sanitize("rsql@" + instanceId + "@" + job + "@state",
                RocketMqNames.MAX_GROUP_LENGTH));
        producer.setSendMsgTimeout((int) Math.min(Integer.MAX_VALUE, settings.requestTimeout().toMillis()));
        // A retry inside the client could store a message twice at different offsets; the changelog retries itself.
        producer.setRetryTimesWhenSendFailed(0);
        producer.setCompressMsgBodyOverHowmuch(Integer.MAX_VALUE);
        producer.start();
        return producer;
    }

    ShuffleTopic shuffleTopic() {
        return shuffle;
    }

    /** The ids of this stage's tasks, one per shuffle queue: the channels of a shuffle downstream. */
    List<String> channelIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < shuffle.queueCount(); i++) {
            ids.add(taskId(i));
        }
        return ids;
    }

    private String taskId(int queueIndex) {
        return exchange.id() + "#" + queueIndex;
    }

    /** The exchange a shuffle task's id ({@code <exchange id>#<queue index>}) names, or null for another task. */
    static String exchangeOf(String taskId) {
        int hash = taskId.lastIndexOf('#');
        return hash < 0 ? null : taskId.substring(0, hash);
    }

    /** The queue index a task id of this stage names, or -1 if it names none. */
    private int indexOf(String taskId) {
        try {
            int index = Integer.parseInt(taskId.substring(taskId.lastIndexOf('#') + 1));
            return index >= 0 && index < shuffle.queueCount() ? index : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The state queue of this stage's task with that id (it may come from a broker's check), or null. */
    MessageQueue stateQueueOf(String taskId) {
        int index = indexOf(taskId);
        return index < 0 ? null : stateTopic.queue(index);
    }

    /** Joins the exchange's consumer group and starts handing polled messages to the tasks. */
    void start() throws Exception {
        channels = new HashSet<>(job.upstreamChannels(exchange));
        String instance = RocketMqNames.sanitize("rsql@" + job.instanceId() + "@" + job.jobName() + "@"
                + exchange.id(), RocketMqNames.MAX_GROUP_LENGTH);
        reader = new ShuffleReader(job.namesrv(), ShuffleTopic.consumerGroup(job.jobName(), exchange.id()), instance,
                shuffle, this);
        reader.start();
        polling = true;
        poller = new Thread(JobMdc.carrying(job.jobName(), this::pollLoop),
                "rsql-" + job.jobName().replace('/', '.') + "-" + exchange.id() + "-poller");
        poller.setDaemon(true);
        poller.start();
    }

    private void pollLoop() {
        while (polling) {
            try {
                List<MessageExt> messages = reader.poll(POLL);
                if (!messages.isEmpty()) {
                    ShuffleTask task = byQueue.get(reader.queueOf(messages.get(0)));
                    if (task != null) {
                        task.offer(messages);
                    }
                }
            } catch (RuntimeException e) {
                if (polling) {
                    LOG.warn("job={} topic={}: polling failed: {}", job.jobName(), shuffle.name(), e.toString());
                    LockSupport.parkNanos(POLL.toNanos());
                }
            }
        }
    }

    /** Restores the queue's state, starts its task, and then lets the reader fetch from the checkpointed offset. */
    @Override
    public void assigned(MessageQueue queue) {
        take(queue, false);
    }

    /**
     * Takes a queue the group assigns here: restores its state (a new incarnation, claiming the state queue), starts
     * its task, and has the reader fetch from the restored checkpoint's offset ({@code again}: the queue was being read
     * for a task that is gone, so reading restarts there).
     */
    private synchronized void take(MessageQueue queue, boolean again) {
        // Rebalances and retakes come from different threads: one task per queue, and none for a queue revoked.
        if (stopped || !job.isRunning() || byQueue.containsKey(queue) || (again && !reader.isAssigned(queue))) {
            return;
        }
        int index = shuffle.indexOf(queue);
        String id = taskId(index);
        try {
            RestoredState restored = job.restorer().restore(job.jobName(), id, stateTopic.queue(index),
                    job.workDir(id), job.keyGroups(), job.stateBackendType());
            ShuffleCheckpoint checkpoint = restored.commit() == null ? ShuffleCheckpoint.INITIAL
                    : ShuffleCheckpoint.fromBytes(restored.commit().taskMeta());
            restoring.put(id, restored);
            checkpoints.put(id, checkpoint);
            StateChangelogWriter changelog = job.restorer().writer(job.jobName(), id, restored);
            ShuffleTask task = job.addTask(id, () -> createTask(id, index, queue, checkpoint, changelog, restored));
            if (restored.commit() != null) {
                task.stateRestored(restored.stats().millis() * 1_000_000);
            }
            byQueue.put(queue, task);
            job.transactions().register(task);
            if (!again) {
                reader.seek(queue, checkpoint.nextOffset());
            } else if (!reader.restart(queue, checkpoint.nextOffset())) {
                // Revoked while its state was restored (seconds on a loaded machine): revoked(), waiting for this
                // monitor, finds the task and checkpoints and stops it, as any revoked task.
                LOG.info("job={} task={}: shuffle queue {} of {} was revoked while its state was restored; the task "
                        + "stops", job.jobName(), id, index, shuffle.name());
                return;
            }
            LOG.info("job={} task={} took shuffle queue {} of {}: restored in {} ms ({} entries), reading from offset"
                            + " {}", job.jobName(), id, index, shuffle.name(), restored.stats().millis(),
                    restored.stats().entriesApplied(), checkpoint.nextOffset());
        } catch (Exception e) {
            RestoredState r = restoring.remove(id);
            if (r != null) {
                r.backend().close();
            }
            job.fail(new IllegalStateException("job " + job.jobName() + ": cannot take shuffle queue " + index
                    + " of " + shuffle.name() + ": " + e.getMessage(), e));
        }
    }

    private ShuffleTask createTask(String id, int index, MessageQueue queue, ShuffleCheckpoint checkpoint,
                                   StateChangelogWriter changelog, RestoredState restored) throws Exception {
        AtomicReference<ShuffleTask> self = new AtomicReference<>();
        TaskTransaction transaction = new TaskTransaction(id, changelog.incarnation());
        // The task's own checkpoint ids are used whatever the trigger says (ShuffleTask.persist).
        TaskSinkStages stages = new TaskSinkStages(id, restored.commit(), restored.staged(),
                () -> self.get().triggerCheckpointUnlessQueued(0));
        SinkWriterContext writerContext = job.writerContext(id, transaction::current, stages::forTable);
        TaskTopology topology = job.topology(id, exchange, writerContext, self);
        ShuffleInput input = new ShuffleInput(exchange.outputType(), channels, checkpoint.channels());
        RecordErrorHandler errors = job.errorHandlerAfterExchange(id, exchange, writerContext);
        ShuffleTask task = new ShuffleTask(id, "shuffle queue " + index + " of " + shuffle.name(), job.services(),
                topology, input, checkpoint, changelog, transaction, stages, new QueueControl(queue), errors);
        self.set(task);
        return task;
    }

    /** The queue moves to another instance: its task checkpoints and stops first. */
    @Override
    public synchronized void revoked(MessageQueue queue) {
        ShuffleTask task = byQueue.get(queue);
        if (task != null) {
            LOG.info("job={} task={} revoked; checkpointing and stopping", job.jobName(), task.id());
            job.checkpointAndStop(task);
        }
    }

    /** The state a task's operators open: the one restored for it. */
    KeyedStateBackend restoredState(String taskId) {
        RestoredState r = restoring.get(taskId);
        return r == null ? null : r.backend();
    }

    /** The watermark a task resumes from, as its operators see it. */
    TaskSnapshot restoredSnapshot(String taskId) {
        ShuffleCheckpoint c = checkpoints.get(taskId);
        return c == null ? null : new TaskSnapshot(taskId, c.nextOffset(), c.watermark(), null);
    }

    /** Releases what a task of this stage held: its queue, state and working directory. */
    void taskEnded(Task task) {
        byQueue.values().remove(task);
        job.transactions().unregister((ShuffleTask) task);
        checkpoints.remove(task.id());
        RestoredState r = restoring.remove(task.id());
        if (r != null) {
            r.backend().close();
            try {
                CompletedCheckpoint.deleteTree(job.workDir(task.id()));
            } catch (IOException e) {
                LOG.warn("job={} task={}: cannot delete its working state {}: {}", job.jobName(), task.id(),
                        job.workDir(task.id()), e.toString());
            }
        }
    }

    /**
     * Handles the failure of one of this stage's tasks unless it is the job's to handle (a record the job's error
     * policy fails on): its checkpoint in progress is void, its sinks' open transaction is rolled back by the broker's
     * check, and the queue is taken again from its last checkpoint a little later if the group still assigns it here.
     * That covers another instance having claimed the state queue (two instances held the queue for a moment: the
     * other one keeps it) and a broker that did not answer in time (the task restarts, waiting longer each time it
     * fails again soon).
     */
    boolean taskFailed(Task task, Throwable cause) {
        boolean claimed = false;
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof RecordException) {
                return false;
            }
            claimed |= t instanceof StateQueueConflictException;
        }
        String id = task.id();
        MessageQueue queue = shuffle.queue(indexOf(id));
        Duration delay = claimed ? RETAKE_DELAY : restartDelay(queue);
        LOG.warn("job={} task={}: {}; taking the queue again from its last checkpoint in {} ms if the group still "
                + "assigns it here", job.jobName(), id, claimed ? "another instance claimed the state queue"
                : "failed: " + cause.getMessage(), delay.toMillis());
        retakes.schedule(() -> retake(queue), delay.toMillis(), TimeUnit.MILLISECONDS);
        return true;
    }

    /** Twice as long as the last time when the queue's task failed again within a minute, up to a minute. */
    private Duration restartDelay(MessageQueue queue) {
        long now = System.nanoTime();
        Restarts r = restarts.compute(queue, (q, last) -> last == null || now - last.atNanos > MAX_DELAY.toNanos()
                ? new Restarts(now, RETAKE_DELAY.toMillis())
                : new Restarts(now, Math.min(2 * last.delayMillis, MAX_DELAY.toMillis())));
        return Duration.ofMillis(r.delayMillis);
    }

    private record Restarts(long atNanos, long delayMillis) {
    }

    /**
     * Two instances may both hold a queue for a moment (each rebalances on its own): the one that claimed the state
     * queue last wins, and the other's task stops. If the group still assigns the queue here once that moment has
     * passed, this instance takes it back; otherwise the other one has it.
     */
    private void retake(MessageQueue queue) {
        if (job.isRunning() && !byQueue.containsKey(queue) && reader.isAssigned(queue)) {
            LOG.info("job={} topic={} queue={}: still assigned here; taking it back", job.jobName(), shuffle.name(),
                    queue.getQueueId());
            take(queue, true);
        }
    }

    /**
     * Stops handing messages to tasks and taking queues (the job is stopping). Waits for a take under way: the task
     * it starts is then among those the job stops (one taken after the job listed its tasks was left running).
     */
    void stopReading() {
        synchronized (this) {
            stopped = true;
        }
        polling = false;
        if (poller != null) {
            try {
                poller.join(POLL.toMillis() * 20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Leaves the consumer group: the other instances take the queues. */
    void close() {
        retakes.shutdownNow();
        offsets.shutdownNow();
        if (reader != null) {
            reader.close();
        }
    }

    /** A task's control over its shuffle queue. */
    private final class QueueControl implements ShuffleTask.QueueControl {
        private final MessageQueue queue;
        /** The offset to store next, -1 when no store is scheduled. */
        private final AtomicLong latest = new AtomicLong(-1);

        QueueControl(MessageQueue queue) {
            this.queue = queue;
        }

        @Override
        public void pause() {
            reader.pause(queue);
        }

        @Override
        public void resume() {
            reader.resume(queue);
        }

        /**
         * Stores the offset in the background: the commit record is what restores read, so the task need not wait
         * for this round trip. Offsets that come while one is being stored are coalesced into the latest.
         */
        @Override
        public void commit(long offset) {
            if (latest.getAndSet(offset) >= 0) {
                return;   // a store is scheduled and will take this offset
            }
            try {
                offsets.execute(this::store);
            } catch (RejectedExecutionException e) {
                latest.set(-1);   // the stage is closing
            }
        }

        private void store() {
            long offset = latest.getAndSet(-1);
            try {
                reader.commit(queue, offset);
            } catch (Exception e) {
                LOG.debug("job={} topic={} queue={}: storing offset {} failed: {}", job.jobName(), shuffle.name(),
                        queue.getQueueId(), offset, e.toString());
            }
        }
    }
}
