package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.connector.SinkTransactions;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkStage;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SourceFields;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.lookup.DimensionTables;
import dev.rsql.runtime.metrics.CheckpointStats;
import dev.rsql.runtime.table.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every kind of {@link Job} has: its settings and identity for connectors, worker and timer threads, sinks,
 * tasks, and the way it ends (stopped, finished or failed, once).
 */
abstract class AbstractJob implements Job {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractJob.class);
    /** Past the stop deadline, how long each task that has not stopped yet still gets. */
    private static final long LAST_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Ended tasks status still shows: with rebalancing, queues come and go. */
    private static final int ENDED_TASKS_SHOWN = 64;

    protected final JobGraph graph;
    protected final EngineContext engine;
    protected final Options config;
    /** Where the tasks keep keyed state ({@code state.backend.type}). */
    protected final StateBackendType stateBackendType;
    protected final JobInfo jobInfo;
    protected final ExecutorService workers;
    protected final ScheduledExecutorService timers;
    /** A source shard without data for this long stops holding the watermark back (0: never). */
    protected final long idleTimeoutMillis;
    /** How long a graceful stop may take ({@code stop.timeout}). */
    protected final Duration stopTimeout;
    protected final Map<String, Sink> sinks = new LinkedHashMap<>();           // by sink node id
    protected final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final Map<String, Sink> sideSinks = new ConcurrentHashMap<>();     // by table name
    protected final DimensionTables dimensionTables;
    private final List<Task> endedTasks = new ArrayList<>();
    private final AtomicInteger taskIndex = new AtomicInteger();
    private final CompletableFuture<JobInstance.State> termination = new CompletableFuture<>();
    private final long startedMillis = System.currentTimeMillis();
    private final TaskWatchdog watchdog;
    /** Tasks that will not yield: inside System.exit, or not stopped by the stop deadline. Nothing waits for them. */
    private final Set<Task> leftBehind = ConcurrentHashMap.newKeySet();
    private volatile long stopDeadlineNanos;

    protected volatile JobInstance.State state = JobInstance.State.CREATED;
    protected volatile Throwable failure;

    /**
     * @param dataDir      the directory connectors and state may keep files in
     * @param transactions how transactional sinks learn the fate of a transaction, or null
     */
    AbstractJob(JobGraph graph, EngineContext engine, Path dataDir, Supplier<SinkTransactions> transactions) {
        this.graph = graph;
        this.engine = engine;
        this.config = engine.configFor(graph.parameters());
        String instanceId = engine.instanceId();
        Options options = config;
        this.jobInfo = new JobInfo() {
            @Override
            public String name() {
                return graph.name();
            }

            @Override
            public String instanceId() {
                return instanceId;
            }

            @Override
            public Options config() {
                return options;
            }

            @Override
            public Path dataDir() {
                return dataDir;
            }

            @Override
            public ClassLoader classLoader() {
                return engine.classLoader();
            }

            @Override
            public SinkTransactions sinkTransactions() {
                return transactions == null ? null : transactions.get();
            }
        };
        this.stateBackendType = StateBackendType.of(config);
        this.idleTimeoutMillis = config.getDuration(Duration.ofSeconds(5), "table.exec.source.idle-timeout",
                "source.idle-timeout").toMillis();
        AtomicInteger n = new AtomicInteger();
        String prefix = "rsql-" + graph.name().replace('/', '.');
        this.workers = Executors.newFixedThreadPool(EngineContext.workerThreads(config),
                r -> daemon(JobMdc.carrying(graph.name(), r), prefix + "-worker-" + n.incrementAndGet()));
        this.timers = Executors.newSingleThreadScheduledExecutor(
                r -> daemon(JobMdc.carrying(graph.name(), r), prefix + "-timer"));
        this.stopTimeout = EngineContext.stopTimeout(config);
        this.watchdog = new TaskWatchdog(graph.name(), EngineContext.stuckTimeout(config), tasks::values);
        this.dimensionTables = new DimensionTables(graph.name(), table -> redacting(table, () -> engine.connectors()
                .get(table.connector()).createLookupSource(new DefaultConnectorContext(table, jobInfo,
                        engine.formats()))));
    }

    /** Starts looking for tasks stuck in a record (on the timer thread). */
    final void startWatchdog() {
        watchdog.start(timers);
    }

    static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public JobGraph graph() {
        return graph;
    }

    Sink createSink(TableDescriptor table) {
        ConnectorFactory f = engine.connectors().get(table.connector());
        return redacting(table, () -> f.createSink(new DefaultConnectorContext(table, jobInfo, engine.formats())));
    }

    Source createSource(SourceNode node) {
        ConnectorFactory f = engine.connectors().get(node.table().connector());
        return redacting(node.table(), () -> f.createSource(new DefaultConnectorContext(node.table(), jobInfo,
                engine.formats(), SourceFields.read(graph, node))));
    }

    /**
     * Creates a table's source, sink or lookup source. A connector words its own errors and may quote a value that
     * must not be shown (a path from an environment variable): masked here, and the cause, which may quote it too,
     * left out then.
     */
    private static <T> T redacting(TableDescriptor table, Supplier<T> create) {
        try {
            return create.get();
        } catch (ConfigException e) {
            String message = table.options().redact(e.getMessage());
            if (message.equals(e.getMessage())) {
                throw e;
            }
            throw new ConfigException(e.option(), message, null);
        }
    }

    /** A sink writer context; {@code transaction} gives the transaction of the rows written now, or null. */
    SinkWriterContext writerContext(String taskId, Supplier<String> transaction) {
        return writerContext(taskId, transaction, table -> null);
    }

    /** A sink writer context whose writers may keep rows with the task's checkpoints ({@code stages}). */
    SinkWriterContext writerContext(String taskId, Supplier<String> transaction,
                                    Function<String, SinkStage> stages) {
        int index = taskIndex.getAndIncrement();
        return new SinkWriterContext() {
            @Override
            public String taskId() {
                return taskId;
            }

            @Override
            public int taskIndex() {
                return index;
            }

            @Override
            public String transactionId() {
                return transaction.get();
            }

            @Override
            public SinkStage sinkStage(String table) {
                return stages.apply(table);
            }
        };
    }

    /** The services every kind of job gives its tasks alike. */
    abstract class CommonServices implements TaskServices {
        @Override
        public String jobName() {
            return graph.name();
        }

        @Override
        public Options config() {
            return config;
        }

        @Override
        public Executor workers() {
            return workers;
        }

        @Override
        public ScheduledExecutorService timers() {
            return timers;
        }

        @Override
        public DimensionTables dimensionTables() {
            return dimensionTables;
        }

        @Override
        public SinkWriter sideOutput(TableDescriptor table, SinkWriterContext context) throws Exception {
            return sideSinks.computeIfAbsent(table.name(), k -> createSink(table)).createWriter(context);
        }
    }

    /** A task ended: it leaves the running tasks; {@link #onTaskEnded} lets the job react. */
    final void taskEnded(Task task) {
        // the job's lock first: a task ending while the job starts is handled once start() is done
        synchronized (this) {
            synchronized (endedTasks) {
                if (tasks.remove(task.id(), task)) {
                    endedTasks.add(task);
                    if (endedTasks.size() > ENDED_TASKS_SHOWN) {
                        endedTasks.remove(0);
                    }
                }
            }
        }
        onTaskEnded(task);
    }

    abstract void onTaskEnded(Task task);

    /**
     * Waits until the tasks have ended: while the job stops, until its stop deadline; otherwise for at most
     * {@code stop.timeout}. A task that has not ended by then is logged with what it is doing, and left behind: later
     * waits skip it.
     */
    void await(Collection<Task> waitFor) {
        long deadline = state == JobInstance.State.STOPPING ? stopDeadlineNanos
                : System.nanoTime() + stopTimeout.toNanos();
        for (Task task : waitFor) {
            if (leftBehind.contains(task)) {
                continue;
            }
            try {
                task.terminated().get(Math.max(LAST_WAIT_NANOS, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                leftBehind.add(task);
                LOG.error("job={} task={} did not stop within {} s {}", graph.name(), task.id(),
                        stopTimeout.toSeconds(), TaskWatchdog.describe(task));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.debug("job={} task={} ended with an error", graph.name(), task.id(), e);
            }
        }
    }

    /** True when some task is known not to take part in a checkpoint or a stop soon: stuck, or left behind. */
    final boolean anyTaskStuck() {
        return !leftBehind.isEmpty() || tasks.values().stream().anyMatch(t -> t.stuck() != null);
    }

    /**
     * A function that calls System.exit runs the JVM's shutdown hooks on its task's thread and waits there for them,
     * so that task never yields again: it fails the job, naming the function and record, and nothing waits for it.
     */
    private void failTasksInSystemExit() {
        for (Task task : tasks.values()) {
            Thread thread = task.sliceThread();
            if (thread == null || !CallStack.inSystemExit(thread.getStackTrace())) {
                continue;
            }
            leftBehind.add(task);
            String where = TaskWatchdog.describe(task);
            LOG.error("job={} task={} called System.exit {}; the job stops without waiting for the task", graph.name(),
                    task.id(), where);
            fail(new IllegalStateException("job " + graph.name() + " task " + task.id() + ": System.exit called "
                    + where));
        }
    }

    void fail(Throwable cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
            } else if (failure != cause) {
                failure.addSuppressed(cause);
            }
        }
        LOG.error("job={} failed: {}", graph.name(), cause.getMessage());
        shutdownAsync(JobInstance.State.FAILED);
    }

    /** Ends the job on its own thread: the caller may be a worker that the shutdown waits for. */
    void shutdownAsync(JobInstance.State finalState) {
        if (!beginShutdown()) {
            return;
        }
        Thread t = daemon(JobMdc.carrying(graph.name(), () -> shutdown(finalState)),
                "rsql-" + graph.name().replace('/', '.') + "-shutdown");
        t.start();
    }

    final synchronized boolean beginShutdown() {
        if (state == JobInstance.State.RUNNING || state == JobInstance.State.CREATED) {
            stopDeadlineNanos = System.nanoTime() + stopTimeout.toNanos();
            state = JobInstance.State.STOPPING;
            return true;
        }
        return false;
    }

    /** Stops the tasks and releases everything; ends with {@link #ended}. */
    abstract void shutdown(JobInstance.State finalState);

    @Override
    public void stop() {
        failTasksInSystemExit();
        if (beginShutdown()) {
            shutdown(JobInstance.State.STOPPED);
        } else {
            awaitTermination(stopTimeout);
        }
    }

    /** Closes the sinks and the worker pool, and completes the job in its final state. */
    final void ended(JobInstance.State finalState, Runnable cleanUp) {
        for (Map<String, Sink> m : List.of(sinks, sideSinks)) {
            m.forEach((id, sink) -> close("sink " + id, sink));
        }
        close("dimension tables", dimensionTables);
        workers.shutdown();
        JobInstance.State end = failure != null ? JobInstance.State.FAILED : finalState;
        cleanUp.run();
        state = end;
        LOG.info("job={} instance={} {}", graph.name(), jobInfo.instanceId(), end.name().toLowerCase());
        termination.complete(end);
    }

    final void close(String what, AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("job={} closing {} failed", graph.name(), what, e);
        }
    }


    @Override
    public CompletableFuture<JobInstance.State> termination() {
        return termination;
    }

    @Override
    public JobInstance.State state() {
        return state;
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    @Override
    public JobStatus status() {
        List<TaskStatus> all = new ArrayList<>();
        // not the job's lock: status is read while start() holds it (loading dimension tables)
        synchronized (endedTasks) {
            endedTasks.forEach(t -> all.add(t.status()));
        }
        tasks.values().forEach(t -> all.add(t.status()));
        Throwable f = failure;
        return new JobStatus(graph.name(), jobInfo.instanceId(), state, startedMillis, System.currentTimeMillis(), all,
                f == null ? null : f.getMessage(), 0, null, dimensionTables.status(), checkpointStats());
    }

    /** The job's checkpoints, where this process coordinates them. */
    CheckpointStats checkpointStats() {
        return CheckpointStats.NONE;
    }
}
