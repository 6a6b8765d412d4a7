package dev.rsql.runtime.exec;

import dev.rsql.runtime.metrics.CheckpointStats;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.exec.exchange.ExchangeWriter;
import dev.rsql.runtime.exec.exchange.LocalExchange;
import dev.rsql.runtime.exec.exchange.StageOutput;
import dev.rsql.runtime.graph.ExchangeNode;
import dev.rsql.runtime.graph.GraphNode;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.state.KeyedStateBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import java.util.stream.Collectors;

/**
 * Runs one job's graph in this process: creates its sinks, exchanges and sources, a task for every shard the sources
 * assign here and for every partition of each exchange, checkpoints on a timer, and ends when stopped, when a task
 * fails, or — if every source is bounded — when everything has been read. A job with state resumes from its latest
 * completed checkpoint: state, watermarks and source positions, as far as they still fit the script
 * ({@link CheckpointMatch}); once it has finished, it has nothing to resume, and its next run starts from the
 * beginning. While it runs, the job holds its state directory ({@link StateDirLock}): a second process is refused.
 */
public final class JobInstance extends AbstractJob {

    private static final Logger LOG = LoggerFactory.getLogger(JobInstance.class);
    /** Under the job's state directory: completed checkpoints, and the tasks' working copies of their state. */
    private static final String CHECKPOINTS_DIR = "checkpoints";
    private static final String WORK_DIR = "work";

    /** {@code RESTARTING}: waiting to restart after a transient failure (see {@code RestartingJob}). */
    public enum State { CREATED, RUNNING, RESTARTING, STOPPING, FINISHED, STOPPED, FAILED }

    private final boolean stateful;
    private final Path jobStateDir;
    private final int partitions;
    private final int keyGroups;
    private final Map<SourceNode, Source> sources = new LinkedHashMap<>();
    private final Map<String, LocalExchange> exchanges = new LinkedHashMap<>();
    private final AtomicInteger sourcesAnnouncing = new AtomicInteger();
    private final Services services = new Services();

    /** Held from start until the job has ended; null when another process holds it. */
    private StateDirLock lock;
    private CompletedCheckpoint restored;
    /** The restored checkpoint's task snapshots that apply: not those of a source that changed. */
    private final Map<String, TaskSnapshot> restoredTasks = new HashMap<>();
    private CheckpointCoordinator coordinator;

    public JobInstance(JobGraph graph, EngineContext engine) {
        super(graph, engine, engine.stateDir().resolve(graph.name()), null);
        this.jobStateDir = engine.stateDir().resolve(graph.name());
        this.stateful = graph.nodes().stream().anyMatch(n -> n instanceof ExchangeNode);
        int threads = EngineContext.workerThreads(config);
        this.partitions = Math.max(1, config.getInt(threads, "parallelism", "table.exec.resource.default-parallelism"));
        this.keyGroups = Math.max(partitions, config.getInt(128, "max-parallelism", "pipeline.max-parallelism"));
    }

    /**
     * Takes the job's state directory ({@link StateDirLock}), creates sinks, sources and exchanges, restores the
     * latest checkpoint if any (what still fits the script, see {@link CheckpointMatch}), and starts reading.
     */
    @Override
    public synchronized void start() throws Exception {
        if (state != State.CREATED) {
            throw new IllegalStateException("job " + graph.name() + " was already started");
        }
        state = State.RUNNING;
        try {
            lock = StateDirLock.acquire(jobStateDir, graph.name());
            Path checkpointRoot = stateful ? jobStateDir.resolve(CHECKPOINTS_DIR) : null;
            restored = stateful ? CompletedCheckpoint.latest(checkpointRoot) : null;
            for (SinkNode node : graph.sinks()) {
                sinks.put(node.id(), createSink(node.table()));
            }
            dimensionTables.preload(graph);
            for (SourceNode node : graph.sources()) {
                sources.put(node, createSource(node));
            }
            StateIdentity identity = StateIdentity.of(graph, sources);
            if (restored != null) {
                Set<String> changedSources = CheckpointMatch.check(graph.name(), restored, identity);
                restored.tasks().forEach((id, snapshot) -> {
                    if (changedSources.stream().noneMatch(table -> id.startsWith(table + "#"))) {
                        restoredTasks.put(id, snapshot);
                    }
                });
            }
            if (stateful) {
                // Under the lock, a checkpoint without metadata is one a dead process left unfinished; this run would
                // take the next checkpoint under the same id, into the same directory.
                List<String> discarded = CompletedCheckpoint.deleteUnfinished(checkpointRoot);
                if (!discarded.isEmpty()) {
                    LOG.info("job={} discarded unfinished checkpoints left by an earlier run: {}", graph.name(),
                            discarded);
                }
            }
            coordinator = new CheckpointCoordinator(graph.name(), checkpointRoot, identity,
                    restored == null ? 1 : restored.id() + 1, tasks::values);
            LOG.info("job={} instance={} starting with {} worker threads{}", graph.name(), jobInfo.instanceId(),
                    EngineContext.workerThreads(config), restored == null ? "" : ", restoring checkpoint "
                            + restored.id() + " from " + restored.dir());
            for (GraphNode node : graph.nodes()) {
                if (node instanceof ExchangeNode) {
                    exchanges.put(node.id(), new LocalExchange((ExchangeNode) node, partitions, keyGroups));
                }
            }
            for (LocalExchange ex : exchanges.values()) {
                for (int p = 0; p < ex.partitions(); p++) {
                    startPartitionTask(ex, p);
                }
            }
            sourcesAnnouncing.set(sources.size());
            for (Map.Entry<SourceNode, Source> e : sources.entrySet()) {
                e.getValue().start(new Shards(e.getKey(), e.getValue().isBounded()));
            }
        } catch (Exception e) {
            fail(e);
            throw e;
        }
        long interval = EngineContext.checkpointInterval(config).toMillis();
        try {
            timers.scheduleWithFixedDelay(() -> coordinator.trigger(), interval, interval, TimeUnit.MILLISECONDS);
            startWatchdog();
            checkCompletion();
        } catch (RejectedExecutionException e) {
            if (failure() == null) {
                throw e;
            }
            // a task failed while the job started (a sink that cannot connect): the job has failed with its error,
            // which awaitTermination and failure() report; its timers are shut down already
        }
    }

    private void startPartitionTask(LocalExchange exchange, int partition) throws Exception {
        String id = exchange.node().id() + "#" + partition;
        SinkWriterContext writerContext = writerContext(id, () -> null);
        RecordErrorHandler errors = partitionErrorHandler(id, exchange.node(), writerContext);
        Task task = coordinator.addTask(firstCheckpoint -> {
            AtomicReference<Task> self = new AtomicReference<>();
            TaskTopology topology = TaskTopology.build(exchange.node(), new TaskTopology.Resources(graph, sinks,
                    this::stageOutput, writerContext, () -> self.get().wakeUp(), firstCheckpoint));
            PartitionTask t = new PartitionTask(id, services, topology, exchange.gate(partition), partition, errors);
            self.set(t);
            return t;
        }, t -> tasks.put(id, t));
        task.start();
    }

    private RecordErrorHandler partitionErrorHandler(String taskId, GraphNode exchange, SinkWriterContext context)
            throws Exception {
        return RecordErrorHandler.afterExchange(graph.name(), taskId, exchange, t -> services.sideOutput(t, context));
    }

    /** A task's writer into one of the job's in-process exchanges. */
    private StageOutput stageOutput(ExchangeNode node, Runnable taskWakeup, long firstCheckpoint) {
        return new ExchangeWriter(exchanges.get(node.id()), taskWakeup, firstCheckpoint);
    }

    /** Receives the shards of one source and runs a task for each. */
    private final class Shards implements ShardListener {
        private final SourceNode node;
        private final boolean bounded;
        private volatile boolean announced;

        Shards(SourceNode node, boolean bounded) {
            this.node = node;
            this.bounded = bounded;
        }

        private String taskId(String shardId) {
            return node.table().name() + "#" + shardId;
        }

        @Override
        public void shardAssigned(ShardReader reader) {
            shardsAssigned(List.of(reader));
        }

        /** Creates and connects the tasks of all the shards, then starts them. */
        @Override
        public void shardsAssigned(List<? extends ShardReader> readers) {
            List<Task> created = new ArrayList<>();
            for (int i = 0; i < readers.size(); i++) {
                ShardReader reader = readers.get(i);
                if (state != State.RUNNING) {
                    readers.subList(i, readers.size()).forEach(ShardReader::close);
                    break;
                }
                String id = taskId(reader.shardId());
                try {
                    created.add(coordinator.addTask(firstCheckpoint -> createSourceTask(id, node, reader,
                            firstCheckpoint), t -> tasks.put(id, t)));
                    LOG.info("job={} task={} assigned {}", graph.name(), id, reader.description());
                } catch (Exception e) {
                    readers.subList(i, readers.size()).forEach(ShardReader::close);
                    fail(new IllegalStateException("job " + graph.name() + ": cannot start a task for "
                            + reader.description() + ": " + e.getMessage(), e));
                    break;
                }
            }
            created.forEach(Task::start);
        }

        @Override
        public OptionalLong checkpointedPosition(String shardId) {
            TaskSnapshot s = restoredTasks.get(taskId(shardId));
            return s == null ? OptionalLong.empty() : OptionalLong.of(s.position());
        }

        /** A job with state has its positions in its checkpoints: without one there, the startup mode applies. */
        @Override
        public boolean resumesCommittedOffsets() {
            return !stateful;
        }

        @Override
        public void shardRevoked(String shardId) {
            Task task = tasks.get(taskId(shardId));
            if (task == null) {
                return;
            }
            LOG.info("job={} task={} revoked {}; finishing and committing", graph.name(), task.id(),
                    task.status().shard);
            task.requestStop();
            await(List.of(task));
        }

        @Override
        public void noMoreShards() {
            if (bounded && !announced) {
                announced = true;
                sourcesAnnouncing.decrementAndGet();
                checkCompletion();
            }
        }

        @Override
        public void sourceFailed(Throwable cause) {
            fail(cause);
        }
    }

    private Task createSourceTask(String id, SourceNode node, ShardReader reader, long firstCheckpoint)
            throws Exception {
        AtomicReference<Task> self = new AtomicReference<>();
        SinkWriterContext writerContext = writerContext(id, () -> null);
        TaskTopology topology = TaskTopology.build(node, new TaskTopology.Resources(graph, sinks, this::stageOutput,
                writerContext, () -> self.get().wakeUp(), firstCheckpoint));
        RecordErrorHandler errors = RecordErrorHandler.forSource(graph.name(), id, node,
                t -> services.sideOutput(t, writerContext));
        SourceTask task = new SourceTask(id, services, topology, reader, errors, !stateful, idleTimeoutMillis);
        self.set(task);
        return task;
    }

    /** The job's services, as its tasks see them. */
    private final class Services extends CommonServices {
        @Override
        public TaskCheckpoints coordinator() {
            return coordinator;
        }

        @Override
        public KeyedStateBackend openState(String taskId) {
            TaskSnapshot snapshot = restored(taskId);
            Path from = snapshot == null || snapshot.stateDir() == null ? null
                    : restored.dir().resolve(snapshot.stateDir());
            try {
                return stateBackendType.openBackend(jobStateDir.resolve(WORK_DIR).resolve(TaskDirs.safeName(taskId)),
                        from, keyGroups);
            } catch (IOException e) {
                throw new UncheckedIOException("job " + graph.name() + " task " + taskId + ": cannot open its state"
                        + (from == null ? "" : " from " + from), e);
            }
        }

        @Override
        public TaskSnapshot restored(String taskId) {
            return restoredTasks.get(taskId);
        }

        @Override
        public void taskFinished(Task task) {
            taskEnded(task);
            checkCompletion();
        }

        @Override
        public void taskFailed(Task task, Throwable cause) {
            taskEnded(task);
            fail(cause);
        }
    }

    @Override
    void onTaskEnded(Task task) {
        if (coordinator != null) {
            coordinator.taskEnded(task);
        }
    }

    /**
     * Finishes the job once every source is bounded and has announced all shards, and every task has ended. Partition
     * tasks that no source task ever wrote to are stopped then: nothing will reach them.
     */
    private void checkCompletion() {
        if (state != State.RUNNING || sourcesAnnouncing.get() > 0) {
            return;
        }
        for (Source s : sources.values()) {
            if (!s.isBounded()) {
                return;
            }
        }
        boolean sourceTasksRunning = tasks.values().stream().anyMatch(t -> t instanceof SourceTask);
        if (!sourceTasksRunning) {
            for (Task t : tasks.values()) {
                if (t instanceof PartitionTask && !((PartitionTask) t).hasInputChannels()) {
                    t.requestStop();
                }
            }
        }
        if (tasks.isEmpty()) {
            shutdownAsync(State.FINISHED);
        }
    }

    /**
     * Stops gracefully: a job with state first completes a checkpoint, so a restart resumes exactly there; then every
     * source task finishes the records it holds, flushes its sinks and commits its position, and the partition tasks
     * end after the last rows reach them (open windows stay in the checkpoint). Blocks until done.
     */
    @Override
    void shutdown(State finalState) {
        timers.shutdownNow();
        // A stuck task cannot take the checkpoint; half the stop timeout at most goes to trying, the rest to the tasks.
        if (stateful && finalState == State.STOPPED && failure == null && !anyTaskStuck()) {
            try {
                coordinator.trigger().get(stopTimeout.toMillis() / 2, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.warn("job={} could not complete a checkpoint before stopping: {}", graph.name(), e.toString());
            }
        }
        List<Task> running = new ArrayList<>(tasks.values());
        List<Task> sourceTasks = running.stream().filter(t -> t instanceof SourceTask).collect(Collectors.toList());
        sourceTasks.forEach(Task::requestStop);
        if (failure != null || !stateful) {
            running.forEach(Task::requestStop);
        }
        await(sourceTasks);
        if (anyTaskStuck()) {
            // The input of the tasks after a stuck one never ends: they stop as they are (the checkpoint has them).
            running.forEach(Task::requestStop);
        }
        await(running);
        for (Task t : new ArrayList<>(tasks.values())) {
            t.requestStop();
            await(List.of(t));
        }
        sources.forEach((node, source) -> close("source " + node.table().name(), source));
        ended(finalState, () -> {
            if (lock != null) {
                cleanUpStateDir(failure != null ? State.FAILED : finalState);
                lock.close();
            }
        });
    }

    /**
     * The tasks' working copies of their state are scratch once the tasks are closed: a restart restores from the
     * checkpoints. A job that finished its input and fired every window has nothing left to resume: its checkpoints
     * go too, or the next run would restore the last one and read only the input after it.
     */
    private void cleanUpStateDir(State end) {
        List<String> dirs = stateful && end == State.FINISHED ? List.of(WORK_DIR, CHECKPOINTS_DIR) : List.of(WORK_DIR);
        for (String dir : dirs) {
            try {
                CompletedCheckpoint.deleteTree(jobStateDir.resolve(dir));
            } catch (IOException e) {
                LOG.warn("job={} cannot delete {}: {}", graph.name(), jobStateDir.resolve(dir), e.toString());
            }
        }
    }

    /**
     * Deletes a local job's checkpoints and working state, so that its next run starts from scratch: empty state, and
     * sources from their startup mode. Refused ({@link StateConflictException}) while a process runs the job. Returns
     * how many completed checkpoints were deleted.
     */
    public static int reset(EngineContext engine, String jobName) throws IOException {
        Path dir = engine.stateDir().resolve(jobName);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (StateDirLock held = StateDirLock.acquire(dir, jobName)) {
            Path checkpoints = dir.resolve(CHECKPOINTS_DIR);
            int completed = 0;
            if (Files.isDirectory(checkpoints)) {
                try (Stream<Path> all = Files.list(checkpoints)) {
                    completed = (int) all.filter(d -> Files.isRegularFile(d.resolve(CompletedCheckpoint.METADATA)))
                            .count();
                }
            }
            CompletedCheckpoint.deleteTree(checkpoints);
            CompletedCheckpoint.deleteTree(dir.resolve(WORK_DIR));
            LOG.info("job={} reset: deleted {} checkpoints and the working state under {}", jobName, completed, dir);
            return completed;
        }
    }

    /** Takes a checkpoint now (tests and tools); completes with its id. */
    public CompletableFuture<Long> checkpoint() {
        return coordinator.trigger();
    }

    @Override
    CheckpointStats checkpointStats() {
        CheckpointCoordinator c = coordinator;
        return c == null ? CheckpointStats.NONE : c.stats();
    }

    /** Size of the job's local state on disk, for status and benchmarks. */
    public long stateSizeOnDisk() {
        return DirectorySize.of(jobStateDir);
    }
}
