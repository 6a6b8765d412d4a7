package dev.rsql.sdk;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.planner.functions.udf.FunctionObjects;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.Job;
import dev.rsql.runtime.exec.StateConflictException;
import dev.rsql.runtime.exec.restart.RestartingJob;
import dev.rsql.runtime.graph.JobGraph;
import dev.rsql.sdk.dsl.Topology;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The engine inside an application: runs SQL scripts (and DSL topologies) as jobs, each with its own state, in the
 * local or distributed mode its settings ask for ({@code execution.mode}, from the engine's settings or the script's
 * {@code SET}). Settings are those of {@code conf/rsql.conf}.
 *
 * <pre>{@code
 * try (RsqlEngine engine = RsqlEngine.builder()
 *         .settings(Map.of("checkpoint.interval", "2s", "state.dir", "/var/lib/myapp/rsql"))
 *         .function("risk_score", new RiskScore(model))
 *         .build()) {
 *     RsqlJob job = engine.submit("alerts", Files.readString(Path.of("alerts.sql")));
 *     job.addListener(new JobListener() {
 *         public void onFailure(RsqlJob j, Throwable cause) { alarm(j.name(), cause); }
 *     });
 *     ...
 * }   // close() stops every job gracefully
 * }</pre>
 *
 * <p>In distributed mode, every engine (in any process) that runs a job of the same name shares its source and shuffle
 * queues with the others, and takes over their queues, with their state, when they stop.
 */
public final class RsqlEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RsqlEngine.class);
    private static final long EVENT_POLL_MILLIS = 100;
    /** Engines created in this JVM: the second and later get their own default instance id. */
    private static final AtomicInteger ENGINES = new AtomicInteger();

    private final Options settings;
    private final ClassLoader classLoader;
    private final Function<String, String> environment;
    private final Map<String, Object> functions;
    private final List<String> functionKeys = new ArrayList<>();
    private final EngineContext context;
    private final Map<String, RsqlJob> jobs = new ConcurrentSkipListMap<>();
    private final Set<String> starting = new HashSet<>();
    private final List<JobListener> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService events;
    private volatile boolean closed;

    private RsqlEngine(Builder b) {
        Map<String, String> s = new LinkedHashMap<>(b.settings);
        int n = ENGINES.incrementAndGet();
        if (n > 1 && (s.get("instance.id") == null || s.get("instance.id").isBlank())) {
            // two engines of one JVM running one distributed job are two instances of it
            s.put("instance.id", new EngineContext(new Options(Map.of()), b.classLoader).instanceId() + "-" + n);
        }
        this.settings = new Options(s);
        this.classLoader = b.classLoader;
        this.environment = b.environment;
        this.functions = new LinkedHashMap<>(b.functions);
        b.functions.forEach((name, f) -> functionKeys.add(FunctionObjects.register(name, f)));
        this.context = new EngineContext(settings, classLoader);
        this.events = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rsql-engine-events");
            t.setDaemon(true);
            return t;
        });
        events.scheduleWithFixedDelay(this::notifyListeners, EVENT_POLL_MILLIS, EVENT_POLL_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The engine's settings (those given, with an instance id added for a second engine in the JVM). */
    public Map<String, String> settings() {
        return settings.asMap();
    }

    /**
     * Plans a script and starts it as job {@code name}: a script the planner refuses throws {@link ScriptException}
     * (with its line and column) and nothing starts. The job resumes from its last checkpoint, if it has one that fits
     * the script ({@link IncompatibleStateException} if not).
     *
     * @throws IllegalStateException when a job of that name runs in this engine
     * @throws RsqlException         when the job cannot start (settings, a connector that cannot connect)
     */
    public RsqlJob submit(String name, String sqlText) {
        PlannedJob planned = plan(name, sqlText);
        planned.warnings().forEach(w -> LOG.warn("job={} {}", name, w));
        return start(name, sqlText, planned.graph());
    }

    /**
     * Starts a job from an operator graph built in code — what the DSL's topologies run through — as job
     * {@code name}, like {@link #submit(String, String)} does after planning.
     */
    public RsqlJob submit(String name, JobGraph graph) {
        JobGraph named = graph.name().equals(name) ? graph : new JobGraph(name, graph.sinks(), graph.parameters());
        return start(name, null, named);
    }

    /**
     * Starts a topology built with the DSL as job {@code name}: its sources' and sinks' options are checked against
     * the engine's settings first (a bad one throws {@link ScriptException} naming the table, and nothing starts).
     */
    public RsqlJob submit(String name, Topology topology) {
        List<String> warnings;
        try {
            warnings = topology.validate(settings.asMap(), classLoader);
        } catch (RuntimeException e) {
            throw new ScriptException(e.getMessage(), 0, 0, e);
        }
        warnings.forEach(w -> LOG.warn("job={} {}", name, w));
        return submit(name, topology.graph());
    }

    /** Plans a script without running it: its warnings, or {@link ScriptException}. */
    public List<String> check(String name, String sqlText) {
        return plan(name, sqlText).warnings();
    }

    /** The operator graph and physical plans of a script, as {@code bin/rsql explain} prints them. */
    public String explain(String name, String sqlText) {
        return plan(name, sqlText).explain();
    }

    /** The jobs of this engine, running or ended (until a job of the same name is submitted again), by name. */
    public List<RsqlJob> jobs() {
        return List.copyOf(jobs.values());
    }

    public Optional<RsqlJob> job(String name) {
        return Optional.ofNullable(jobs.get(name));
    }

    /** Tells {@code listener} of every job's state changes and failures. */
    public void addListener(JobListener listener) {
        listeners.add(listener);
    }

    public void removeListener(JobListener listener) {
        listeners.remove(listener);
    }

    /** Stops every running job gracefully (in parallel) and releases the engine's functions. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Thread> stoppers = new ArrayList<>();
        for (RsqlJob job : jobs.values()) {
            if (!job.state().isFinal()) {
                Thread t = new Thread(job::stop, "rsql-stop-" + job.name().replace('/', '.'));
                t.start();
                stoppers.add(t);
            }
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        // the last changes (to STOPPED) reach the listeners on the event thread, as every other change does
        events.execute(this::notifyListeners);
        events.shutdown();
        try {
            events.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        functionKeys.forEach(FunctionObjects::release);
    }

    private PlannedJob plan(String name, String sqlText) {
        Objects.requireNonNull(sqlText, "sqlText");
        checkName(name);
        PlannerContext planner = new PlannerContext(settings, classLoader, environment).withFunctions(functions);
        try {
            return new ScriptPlanner(planner).plan(name, sqlText);
        } catch (PlanningException e) {
            SqlParserPos pos = e.position();
            boolean known = pos != null && pos != SqlParserPos.ZERO && pos.getLineNum() > 0;
            throw new ScriptException(e.getMessage(), known ? pos.getLineNum() : 0, known ? pos.getColumnNum() : 0, e);
        } catch (RuntimeException e) {
            // parse errors and the like carry their position in the message
            throw new ScriptException(e.getMessage(), 0, 0, e);
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank() || name.startsWith("/") || name.contains("..") || name.contains("\\")) {
            throw new IllegalArgumentException("a job name must be a non-empty relative name like 'orders' or "
                    + "'ns/orders', got '" + name + "'");
        }
    }

    private RsqlJob start(String name, String script, JobGraph graph) {
        checkName(name);
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the engine is closed");
            }
            RsqlJob existing = jobs.get(name);
            if (starting.contains(name) || existing != null && !existing.state().isFinal()) {
                throw new IllegalStateException("job " + name + " is running in this engine; stop it first");
            }
            starting.add(name);
        }
        try {
            Job job;
            try {
                job = new RestartingJob(graph, context);
            } catch (ConfigException e) {
                throw new RsqlException("job " + name + " cannot start: " + e.getMessage(), e);
            }
            try {
                job.start();
            } catch (StateConflictException e) {
                throw new IncompatibleStateException(e.getMessage(), e);
            } catch (ConfigException e) {
                throw new RsqlException(e.getMessage(), e);
            } catch (Exception e) {
                throw new RsqlException("job " + name + " cannot start: " + e.getMessage(), e);
            }
            RsqlJob handle = new RsqlJob(name, script, job);
            jobs.put(name, handle);
            job.termination().whenComplete((s, e) -> events.execute(this::notifyListeners));
            LOG.info("job={} started ({} mode)", name, Job.isDistributed(graph, context) ? "distributed" : "local");
            return handle;
        } finally {
            synchronized (this) {
                starting.remove(name);
            }
        }
    }

    /** On the event thread: tells the listeners of every job whose state changed since they were last told. */
    private void notifyListeners() {
        for (RsqlJob job : jobs.values()) {
            RsqlJob.State before = job.notified();
            RsqlJob.State now = job.state();
            if (now == before) {
                continue;
            }
            job.notified(now);
            for (JobListener l : all(job)) {
                call(job, () -> l.onStateChange(job, before, now));
            }
            Throwable failure = job.runtimeJob().failure();
            if (now == RsqlJob.State.FAILED && failure != null) {
                for (JobListener l : all(job)) {
                    call(job, () -> l.onFailure(job, failure));
                }
            }
        }
    }

    private List<JobListener> all(RsqlJob job) {
        List<JobListener> all = new ArrayList<>(listeners);
        all.addAll(job.listeners());
        return all;
    }

    private static void call(RsqlJob job, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("job={} a job listener failed: {}", job.name(), e.toString());
        }
    }

    /** Settings, functions and the class loader of an engine. */
    public static final class Builder {
        private final Map<String, String> settings = new LinkedHashMap<>();
        private final Map<String, Object> functions = new LinkedHashMap<>();
        private ClassLoader classLoader = defaultClassLoader();
        private Function<String, String> environment = System::getenv;

        private Builder() {
        }

        private static ClassLoader defaultClassLoader() {
            ClassLoader l = Thread.currentThread().getContextClassLoader();
            return l != null ? l : RsqlEngine.class.getClassLoader();
        }

        /** Engine settings, the keys of {@code conf/rsql.conf} (added to those given before). */
        public Builder settings(Map<String, String> values) {
            settings.putAll(values);
            return this;
        }

        public Builder settings(Properties values) {
            values.stringPropertyNames().forEach(k -> settings.put(k, values.getProperty(k)));
            return this;
        }

        public Builder setting(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /**
         * A function every script of this engine may call as {@code name(...)} without CREATE FUNCTION: an instance of
         * a class CREATE FUNCTION accepts (a Flink/Blink {@code ScalarFunction}, {@code TableFunction} or
         * {@code AggregateFunction}, or a public class with public {@code eval} methods). Its class must be public.
         * Each task gets its own copy of a serializable function (as in Flink); one that is not serializable is shared
         * by every task and must be thread-safe.
         */
        public Builder function(String name, Object function) {
            Objects.requireNonNull(function, "function");
            functions.put(name, function);
            return this;
        }

        /** The loader of connectors, formats and functions named by class (default: the thread's context loader). */
        public Builder classLoader(ClassLoader loader) {
            this.classLoader = Objects.requireNonNull(loader);
            return this;
        }

        /** Environment variables for {@code ${NAME}} in WITH values (default: the process environment). */
        public Builder environment(Function<String, String> env) {
            this.environment = Objects.requireNonNull(env);
            return this;
        }

        /** The engine; it runs no job until one is submitted. */
        public RsqlEngine build() {
            return new RsqlEngine(this);
        }
    }
}
