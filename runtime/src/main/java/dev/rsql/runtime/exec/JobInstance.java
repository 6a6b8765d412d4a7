package dev.rsql.runtime.exec;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.JobInfo;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.runtime.graph.SinkNode;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.table.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one job's graph in this process: creates its sinks and sources, a task for every shard the sources assign
 * here, checkpoints on a timer, and ends when stopped, when a task fails, or — if every source is bounded — when
 * everything has been read.
 */
public final class JobInstance implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobInstance.class);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

    public enum State { CREATED, RUNNING, STOPPING, FINISHED, STOPPED, FAILED }

    private final JobGraph graph;
    private final EngineContext engine;
    private final Options config;
    private final JobInfo jobInfo;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final Map<String, Sink> sinks = new LinkedHashMap<>();               // by sink node id
    private final Map<String, Sink> deadLetterSinks = new LinkedHashMap<>();     // by table name
    private final Map<SourceNode, Source> sources = new LinkedHashMap<>();
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final List<Task> endedTasks = new ArrayList<>();
    private final AtomicInteger sourcesAnnouncing = new AtomicInteger();
    private final AtomicInteger taskIndex = new AtomicInteger();
    private final CompletableFuture<State> termination = new CompletableFuture<>();
    private final long startedMillis = System.currentTimeMillis();

    private volatile State state = State.CREATED;
    private volatile Throwable failure;

    public JobInstance(JobGraph graph, EngineContext engine) {
        this.graph = graph;
        this.engine = engine;
        this.config = engine.configFor(graph.parameters());
        String instanceId = engine.instanceId();
        Path dataDir = engine.stateDir().resolve(graph.name());
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
                return config;
            }

            @Override
            public Path dataDir() {
                return dataDir;
            }

            @Override
            public ClassLoader classLoader() {
                return engine.classLoader();
            }
        };
        int threads = EngineContext.workerThreads(config);
        AtomicInteger n = new AtomicInteger();
        String threadPrefix = "rsql-" + graph.name().replace('/', '.') + "-worker-";
        this.workers = Executors.newFixedThreadPool(threads, r -> daemon(r, threadPrefix + n.incrementAndGet()));
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "rsql-" + graph.name().replace('/', '.') + "-timer"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    public JobGraph graph() {
        return graph;
    }

    /** Creates sinks and sources and starts reading. */
    public synchronized void start() throws Exception {
        if (state != State.CREATED) {
            throw new IllegalStateException("job " + graph.name() + " was already started");
        }
        state = State.RUNNING;
        LOG.info("job={} instance={} starting with {} worker threads", graph.name(), jobInfo.instanceId(),
                EngineContext.workerThreads(config));
        try {
            for (SinkNode node : graph.sinks()) {
                sinks.put(node.id(), createSink(node.table()));
            }
            for (SourceNode node : graph.sources()) {
                TableDescriptor dl = node.deadLetterTable();
                if (dl != null && !deadLetterSinks.containsKey(dl.name())) {
                    deadLetterSinks.put(dl.name(), createSink(dl));
                }
                ConnectorFactory f = engine.connectors().get(node.table().connector());
                sources.put(node, f.createSource(new DefaultConnectorContext(node.table(), jobInfo, engine.formats())));
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
        timer.scheduleWithFixedDelay(this::checkpointAll, interval, interval, TimeUnit.MILLISECONDS);
        checkCompletion();
    }

    private Sink createSink(TableDescriptor table) {
        ConnectorFactory f = engine.connectors().get(table.connector());
        return f.createSink(new DefaultConnectorContext(table, jobInfo, engine.formats()));
    }

    private void checkpointAll() {
        for (Task t : tasks.values()) {
            t.requestCheckpoint();
        }
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

        @Override
        public void shardAssigned(ShardReader reader) {
            if (state != State.RUNNING) {
                reader.close();
                return;
            }
            String id = node.table().name() + "#" + reader.shardId();
            try {
                Task task = createTask(id, node, reader);
                tasks.put(id, task);
                LOG.info("job={} task={} assigned {}", graph.name(), id, reader.description());
                task.start();
            } catch (Exception e) {
                reader.close();
                fail(new IllegalStateException("job " + graph.name() + ": cannot start a task for "
                        + reader.description() + ": " + e.getMessage(), e));
            }
        }

        @Override
        public void shardRevoked(String shardId) {
            Task task = tasks.get(node.table().name() + "#" + shardId);
            if (task == null) {
                return;
            }
            LOG.info("job={} task={} revoked {}; finishing and committing", graph.name(), task.id(),
                    task.reader().description());
            task.requestStop();
            await(task);
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

    private Task createTask(String id, SourceNode node, ShardReader reader) throws Exception {
        int index = taskIndex.getAndIncrement();
        SinkWriterContext writerContext = new SinkWriterContext() {
            @Override
            public String taskId() {
                return id;
            }

            @Override
            public int taskIndex() {
                return index;
            }
        };
        TaskTopology topology = TaskTopology.build(graph, node, sinks, writerContext);
        SinkWriter deadLetter = null;
        TableDescriptor dl = node.deadLetterTable();
        if (dl != null) {
            deadLetter = deadLetterSinks.get(dl.name()).createWriter(writerContext);
        }
        RecordErrorHandler errors = new RecordErrorHandler(graph.name(), id, node.table().name(), node.errorPolicy(),
                deadLetter, dl == null ? null : dl.schema().rowType());
        OperatorContext operatorContext = new OperatorContext() {
            @Override
            public Options parameters() {
                return config;
            }

            @Override
            public String jobName() {
                return graph.name();
            }

            @Override
            public String taskId() {
                return id;
            }
        };
        return new Task(id, graph.name(), reader, topology, errors, operatorContext, workers, new Task.Listener() {
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
        });
    }

    private synchronized void taskEnded(Task task) {
        if (tasks.remove(task.id(), task)) {
            endedTasks.add(task);
        }
    }

    private void await(Task task) {
        try {
            task.terminated().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.error("job={} task={} did not stop within {}", graph.name(), task.id(), STOP_TIMEOUT);
        } catch (Exception e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Finishes the job once every source is bounded, has announced all shards, and every task has ended. */
    private void checkCompletion() {
        if (state != State.RUNNING || sourcesAnnouncing.get() > 0 || !tasks.isEmpty()) {
            return;
        }
        for (Source s : sources.values()) {
            if (!s.isBounded()) {
                return;
            }
        }
        shutdownAsync(State.FINISHED);
    }

    private void fail(Throwable cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
            } else if (failure != cause) {
                failure.addSuppressed(cause);
            }
        }
        LOG.error("job={} failed: {}", graph.name(), cause.getMessage());
        shutdownAsync(State.FAILED);
    }

    /** Ends the job on its own thread: the caller may be a worker that the shutdown waits for. */
    private void shutdownAsync(State finalState) {
        if (!beginShutdown()) {
            return;
        }
        Thread t = new Thread(() -> shutdown(finalState), "rsql-" + graph.name().replace('/', '.') + "-shutdown");
        t.setDaemon(true);
        t.start();
    }

    private synchronized boolean beginShutdown() {
        if (state == State.RUNNING || state == State.CREATED) {
            state = State.STOPPING;
            return true;
        }
        return false;
    }

    /**
     * Stops gracefully: every task finishes the records it holds, flushes its sinks and commits its position; then
     * sources and sinks are closed. Blocks until done. Does nothing if the job already ended.
     */
    public void stop() {
        if (beginShutdown()) {
            shutdown(State.STOPPED);
        } else {
            awaitTermination(STOP_TIMEOUT);
        }
    }

    private void shutdown(State finalState) {
        timer.shutdownNow();
        List<Task> running = new ArrayList<>(tasks.values());
        running.forEach(Task::requestStop);
        running.forEach(this::await);
        sources.forEach((node, source) -> {
            try {
                source.close();
            } catch (RuntimeException e) {
                LOG.warn("job={} closing source {} failed", graph.name(), node.table().name(), e);
            }
        });
        for (Map<String, Sink> m : List.of(sinks, deadLetterSinks)) {
            m.forEach((id, sink) -> {
                try {
                    sink.close();
                } catch (RuntimeException e) {
                    LOG.warn("job={} closing sink {} failed", graph.name(), id, e);
                }
            });
        }
        workers.shutdown();
        State end = failure != null ? State.FAILED : finalState;
        state = end;
        LOG.info("job={} instance={} {}", graph.name(), jobInfo.instanceId(), end.name().toLowerCase());
        termination.complete(end);
    }

    /** Waits for the job to end; returns false on timeout. */
    public boolean awaitTermination(Duration timeout) {
        try {
            termination.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return true;
        }
    }

    /** Completes with the final state when the job has ended. */
    public CompletableFuture<State> termination() {
        return termination;
    }

    public State state() {
        return state;
    }

    /** Why the job failed, or null. */
    public Throwable failure() {
        return failure;
    }

    public JobStatus status() {
        List<TaskStatus> all = new ArrayList<>();
        synchronized (this) {
            endedTasks.forEach(t -> all.add(t.status()));
        }
        tasks.values().forEach(t -> all.add(t.status()));
        Throwable f = failure;
        return new JobStatus(graph.name(), jobInfo.instanceId(), state, startedMillis, System.currentTimeMillis(), all,
                f == null ? null : f.getMessage());
    }

    @Override
    public void close() {
        stop();
    }
}
