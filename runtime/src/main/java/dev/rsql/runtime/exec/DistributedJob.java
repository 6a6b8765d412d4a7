package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.exec.shuffle.ShuffleOptions;
import dev.rsql.runtime.exec.shuffle.ShuffleSender;
import dev.rsql.runtime.exec.shuffle.ShuffleWriter;
import dev.rsql.runtime.exec.shuffle.TopicProvisioner;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.rocketmq.RocketMqNames;
import dev.rsql.runtime.state.KeyedStateBackend;
import dev.rsql.runtime.state.changelog.ChangelogSettings;
import dev.rsql.runtime.state.changelog.StateRestorer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This process's share of a job that runs on several instances (processes with the same job name): tasks for the
 * source queues and shuffle queues that RocketMQ's rebalancing gives it. Source tasks send rows to the job's shuffle
 * topics ({@link ShuffleWriter}); a {@link ShuffleStage} per exchange runs a {@link ShuffleTask} per shuffle queue
 * owned here, its state restored from the queue's state queue first. Every task checkpoints on its own timer: a
 * source task commits its position once the shuffle acknowledged everything it sent, a shuffle task writes its state
 * and commit record and then commits its sinks' transaction. See docs/distributed-runtime.md.
 */
final class DistributedJob extends AbstractJob {

    private static final Logger LOG = LoggerFactory.getLogger(DistributedJob.class);
    private static final String WORK_DIR = "work";

    private final String namesrv;
    private final int keyGroups;
    private final ShuffleOptions shuffleOptions;
    private final ChangelogSettings changelogSettings;
    private final Map<SourceNode, Source> sources = new LinkedHashMap<>();
    private final Map<String, ShuffleStage> stages = new LinkedHashMap<>();   // by exchange id
    private final AtomicLong checkpointIds = new AtomicLong();
    private final Services services = new Services();
    private final TransactionOutcomes transactions;

    private ShuffleSender shuffleSender;
    private DefaultMQProducer stateProducer;
    private StateRestorer restorer;

    DistributedJob(JobGraph graph, EngineContext engine) {
        this(graph, engine, new TransactionOutcomes());
    }

    private DistributedJob(JobGraph graph, EngineContext engine, TransactionOutcomes transactions) {
        super(graph, engine, engine.stateDir().resolve(graph.name()).resolve(RocketMqNames.sanitize(
                engine.instanceId(), 64)), () -> transactions);
        this.transactions = transactions;
        this.namesrv = config.get("shuffle.namesrv", "rocketmq.namesrv", "namesrv.addr", "NAMESRV_ADDR");
        if (namesrv == null || namesrv.isBlank()) {
            throw new ConfigException("job " + graph.name() + " runs distributed but no name server is set for its"
                    + " shuffle and state topics: set 'rocketmq.namesrv' (or 'shuffle.namesrv')");
        }
        this.shuffleOptions = ShuffleOptions.from(config);
        this.changelogSettings = ChangelogSettings.from(config);
        this.keyGroups = Math.max(shuffleOptions.queues(), config.getInt(128, "max-parallelism",
                "pipeline.max-parallelism"));
    }

    /**
     * Provisions the shuffle and state topics, starts the sinks, the sources (source tasks send into the shuffles)
     * and then the shuffle stages, whose tasks restore their state before reading.
     */
    @Override
    public synchronized void start() throws Exception {
        if (state != JobInstance.State.CREATED) {
            throw new IllegalStateException("job " + graph.name() + " was already started");
        }
        state = JobInstance.State.RUNNING;
        String instanceId = jobInfo.instanceId();
        try {
            LOG.info("job={} instance={} starting distributed with {} worker threads, name server {}", graph.name(),
                    instanceId, EngineContext.workerThreads(config), namesrv);
            try (TopicProvisioner provisioner = new TopicProvisioner(namesrv)) {
                for (GraphNode node : graph.nodes()) {
                    if (node instanceof ExchangeNode) {
                        ExchangeNode ex = (ExchangeNode) node;
                        stages.put(ex.id(), new ShuffleStage(this, ex, provisioner));
                    }
                }
            }
            shuffleSender = ShuffleSender.start(namesrv, graph.name(), instanceId, shuffleOptions);
            stateProducer = ShuffleStage.startStateProducer(namesrv, graph.name(), instanceId, changelogSettings);
            restorer = new StateRestorer(stateProducer, namesrv,
                    RocketMqNames.distinct("rsql_" + graph.name() + "_restore", RocketMqNames.MAX_GROUP_LENGTH),
                    RocketMqNames.sanitize("rsql@" + instanceId + "@" + graph.name() + "@restore",
                            RocketMqNames.MAX_GROUP_LENGTH), null, changelogSettings);
            transactions.connect(this::stateQueueOf, restorer);
            for (SinkNode node : graph.sinks()) {
                sinks.put(node.id(), createSink(node.table()));
            }
            dimensionTables.preload(graph);
            for (SourceNode node : graph.sources()) {
                Source source = createSource(node);
                if (source.isBounded()) {
                    throw new ConfigException("job " + graph.name() + " runs distributed, but table "
                            + node.table().name() + " is bounded (" + node.table().connector()
                            + "): distributed jobs read RocketMQ and other unbounded sources");
                }
                sources.put(node, source);
            }
            for (Map.Entry<SourceNode, Source> e : sources.entrySet()) {
                e.getValue().start(new Shards(e.getKey()));
            }
            for (ShuffleStage stage : stages.values()) {
                stage.start();
            }
        } catch (Exception e) {
            fail(e);
            throw e;
        }
        long interval = EngineContext.checkpointInterval(config).toMillis();
        timers.scheduleWithFixedDelay(this::checkpointAll, interval, interval, TimeUnit.MILLISECONDS);
        startWatchdog();
    }

    // ---- what the stages need ----

    String jobName() {
        return graph.name();
    }

    int keyGroups() {
        return keyGroups;
    }

    StateBackendType stateBackendType() {
        return stateBackendType;
    }

    ShuffleOptions shuffleOptions() {
        return shuffleOptions;
    }

    String instanceId() {
        return jobInfo.instanceId();
    }

    StateRestorer restorer() {
        return restorer;
    }

    String namesrv() {
        return namesrv;
    }

    TaskServices services() {
        return services;
    }

    TransactionOutcomes transactions() {
        return transactions;
    }

    boolean isRunning() {
        return state == JobInstance.State.RUNNING;
    }

    /** Where a task keeps its working copy of its state (scratch: the state queue is what restores read). */
    Path workDir(String taskId) {
        return jobInfo.dataDir().resolve(WORK_DIR).resolve(TaskDirs.safeName(taskId));
    }

    /** The channels a stage's tasks hear from: every queue of the sources and shuffles upstream of an exchange. */
    List<String> upstreamChannels(GraphNode node) throws Exception {
        List<String> channels = new ArrayList<>();
        for (GraphNode in : node.inputs()) {
            if (in instanceof SourceNode) {
                SourceNode s = (SourceNode) in;
                for (String shard : sources.get(s).allShardIds()) {
                    channels.add(sourceTaskId(s, shard));
                }
            } else if (in instanceof ExchangeNode) {
                channels.addAll(stages.get(in.id()).channelIds());
            } else {
                channels.addAll(upstreamChannels(in));
            }
        }
        return channels;
    }

    /** Registers a task built by {@code factory}, then starts it. */
    <T extends Task> T addTask(String id, Callable<T> factory) throws Exception {
        T task = factory.call();
        tasks.put(id, task);
        task.start();
        return task;
    }

    /**
     * Builds the operators of a task fed by {@code start}; rows for a downstream exchange go to its shuffle as
     * channel {@code taskId}, sequenced by the task's input position.
     */
    TaskTopology topology(String taskId, GraphNode start, SinkWriterContext writerContext,
                          AtomicReference<? extends Task> self) throws Exception {
        return TaskTopology.build(start, new TaskTopology.Resources(graph, sinks,
                (exchange, wakeup, first) -> shuffleWriter(taskId, exchange, self), writerContext,
                () -> self.get().wakeUp(), 0));
    }

    private StageOutput shuffleWriter(String taskId, ExchangeNode exchange, AtomicReference<? extends Task> self) {
        ShuffleWriter w = new ShuffleWriter(stages.get(exchange.id()).shuffleTopic(), taskId, exchange.outputType(),
                exchange.keyFields(), keyGroups, () -> self.get().inputPosition(), shuffleSender);
        w.setAvailabilityListener(() -> self.get().wakeUp());
        return w;
    }

    RecordErrorHandler errorHandlerAfterExchange(String taskId, ExchangeNode exchange, SinkWriterContext context)
            throws Exception {
        return RecordErrorHandler.afterExchange(graph.name(), taskId, exchange, t -> services.sideOutput(t, context));
    }

    /** The stage a shuffle task's id belongs to, or null (a source task). */
    private ShuffleStage stageOf(String taskId) {
        String exchange = ShuffleStage.exchangeOf(taskId);
        return exchange == null ? null : stages.get(exchange);
    }

    private MessageQueue stateQueueOf(String taskId) {
        ShuffleStage stage = stageOf(taskId);
        return stage == null ? null : stage.stateQueueOf(taskId);
    }

    private static String sourceTaskId(SourceNode node, String shardId) {
        return node.table().name() + "#" + shardId;
    }

    /** Asks every running task for a checkpoint; each takes it on its own, between records. */
    private void checkpointAll() {
        long id = checkpointIds.incrementAndGet();
        for (Task t : tasks.values()) {
            if (t.isRunning()) {
                t.triggerCheckpointUnlessQueued(id);
            }
        }
    }

    /** Checkpoints a task, stops it and waits until it has (its input moves to another instance, or the job stops). */
    void checkpointAndStop(Task task) {
        task.requestCheckpointAndStop(checkpointIds.incrementAndGet());
        await(List.of(task));
    }

    // ---- source shards ----

    /** Receives the shards of one source and runs a task for each; their positions are the consumer group's. */
    private final class Shards implements ShardListener {
        private final SourceNode node;

        Shards(SourceNode node) {
            this.node = node;
        }

        @Override
        public void shardAssigned(ShardReader reader) {
            shardsAssigned(List.of(reader));
        }

        @Override
        public void shardsAssigned(List<? extends ShardReader> readers) {
            for (int i = 0; i < readers.size(); i++) {
                ShardReader reader = readers.get(i);
                if (!isRunning()) {
                    readers.subList(i, readers.size()).forEach(ShardReader::close);
                    return;
                }
                String id = sourceTaskId(node, reader.shardId());
                try {
                    addTask(id, () -> createSourceTask(id, node, reader));
                    LOG.info("job={} task={} assigned {}", graph.name(), id, reader.description());
                } catch (Exception e) {
                    readers.subList(i, readers.size()).forEach(ShardReader::close);
                    fail(new IllegalStateException("job " + graph.name() + ": cannot start a task for "
                            + reader.description() + ": " + e.getMessage(), e));
                    return;
                }
            }
        }

        @Override
        public void shardRevoked(String shardId) {
            Task task = tasks.get(sourceTaskId(node, shardId));
            if (task != null) {
                LOG.info("job={} task={} revoked; checkpointing and stopping", graph.name(), task.id());
                checkpointAndStop(task);
            }
        }

        @Override
        public void noMoreShards() {
        }

        @Override
        public void sourceFailed(Throwable cause) {
            fail(cause);
        }
    }

    private SourceTask createSourceTask(String id, SourceNode node, ShardReader reader) throws Exception {
        AtomicReference<SourceTask> self = new AtomicReference<>();
        SinkWriterContext writerContext = writerContext(id, () -> null);
        TaskTopology topology = topology(id, node, writerContext, self);
        RecordErrorHandler errors = RecordErrorHandler.forSource(graph.name(), id, node,
                t -> services.sideOutput(t, writerContext));
        SourceTask task = new SourceTask(id, services, topology, reader, errors, false, idleTimeoutMillis);
        self.set(task);
        return task;
    }

    // ---- services ----

    /**
     * The job's services as its tasks see them. Checkpoints are per task: a source task's is complete as soon as it
     * is taken (everything it sent is acknowledged), so its position is committed right away.
     */
    private final class Services extends CommonServices implements TaskCheckpoints {
        @Override
        public TaskCheckpoints coordinator() {
            return this;
        }

        @Override
        public String snapshotState(long checkpointId, String taskId, KeyedStateBackend state) {
            throw new IllegalStateException("job " + graph.name() + " task " + taskId + " keeps state before any"
                    + " exchange, which a distributed job cannot make durable");
        }

        @Override
        public void acknowledge(long checkpointId, TaskSnapshot snapshot) {
            Task t = tasks.get(snapshot.taskId());
            if (t != null) {
                t.notifyCheckpointComplete(checkpointId);
            }
        }

        @Override
        public KeyedStateBackend openState(String taskId) {
            ShuffleStage stage = stageOf(taskId);
            if (stage == null) {
                throw new IllegalStateException("job " + graph.name() + " task " + taskId + " keeps state but reads"
                        + " no shuffle queue");
            }
            return stage.restoredState(taskId);
        }

        @Override
        public TaskSnapshot restored(String taskId) {
            ShuffleStage stage = stageOf(taskId);
            return stage == null ? null : stage.restoredSnapshot(taskId);
        }

        @Override
        public void taskFinished(Task task) {
            taskEnded(task);
        }

        @Override
        public void taskFailed(Task task, Throwable cause) {
            taskEnded(task);
            ShuffleStage stage = stageOf(task.id());
            if (stage == null || !stage.taskFailed(task, cause)) {
                fail(cause);
            }
        }
    }

    @Override
    void onTaskEnded(Task task) {
        ShuffleStage stage = stageOf(task.id());
        if (stage != null) {
            stage.taskEnded(task);
        }
    }

    // ---- ending ----

    /**
     * Stops gracefully: source tasks checkpoint (their positions are committed once the shuffles acknowledged what
     * they sent) and stop, then every shuffle task checkpoints its state and commits its sinks, and the instance
     * leaves the consumer groups so that the others take its queues.
     */
    @Override
    void shutdown(JobInstance.State finalState) {
        timers.shutdownNow();
        boolean graceful = failure == null;
        List<Task> sourceTasks = new ArrayList<>();
        tasks.values().stream().filter(t -> t instanceof SourceTask).forEach(sourceTasks::add);
        stopAll(sourceTasks, graceful);
        for (Map.Entry<SourceNode, Source> e : sources.entrySet()) {
            close("source " + e.getKey().table().name(), e.getValue());
        }
        for (ShuffleStage stage : stages.values()) {
            stage.stopReading();
        }
        stopAll(new ArrayList<>(tasks.values()), graceful);
        for (ShuffleStage stage : stages.values()) {
            stage.close();
        }
        // Sinks close first: until then their producers answer transaction checks, which read state queues.
        ended(finalState, () -> {
            close("state restorer", restorer);
            close("shuffle sender", shuffleSender);
            if (stateProducer != null) {
                stateProducer.shutdown();
            }
        });
    }

    private void stopAll(List<Task> running, boolean checkpointFirst) {
        for (Task t : running) {
            if (checkpointFirst) {
                t.requestCheckpointAndStop(checkpointIds.incrementAndGet());
            } else {
                t.requestStop();
            }
        }
        await(running);
    }

}
