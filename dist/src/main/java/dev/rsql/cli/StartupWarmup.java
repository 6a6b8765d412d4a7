package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.exec.StartupTrace;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CountDownLatch;

/**
 * Start-up work that does not depend on the command, done on a second thread: logging's configuration
 * (conf/logback.xml), then, while the main thread reads the script and plans it, the planning of a small script
 * (loading and initialising the parser, Calcite, the planner's rules and built-in functions, and the Java compiler),
 * each a few hundred milliseconds of a cold JVM that a job would otherwise wait for.
 */
final class StartupWarmup {

    private static final CountDownLatch LOGGING = new CountDownLatch(1);
    /** A rule as a rule set has them (LIKE, REGEXP, IN), so the classes of their planning and code are loaded. */
    private static final String SCRIPT = "CREATE TABLE warm_up_source (id BIGINT, name STRING) WITH ("
            + "'connector' = 'datagen', 'number-of-rows' = '1');\n"
            + "CREATE TABLE warm_up_sink (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\n"
            + "INSERT INTO warm_up_sink SELECT id, UPPER(name) FROM warm_up_source\n"
            + "WHERE name LIKE 'a%' AND REGEXP(name, '^[a-z]+$') AND id IN (1, 2, 3);\n";

    private StartupWarmup() {
    }

    /** Starts the warm-up; {@code plans}: the command plans SQL (otherwise only logging is warmed up). */
    static void start(boolean plans) {
        Thread t = new Thread(() -> run(plans), "rsql-warmup");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Waits until logging is configured. Until then SLF4J hands out stand-in loggers (they forward once it is) and
     * no logback context, which e.g. the server's per-job logs attach to: a command runs only after this.
     */
    static void awaitLogging() {
        try {
            LOGGING.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Plans the warm-up's script. */
    static PlannedJob plan() {
        return new ScriptPlanner(PlannerContext.defaults()).plan("warm-up", SCRIPT);
    }

    private static void run(boolean plans) {
        try {
            LoggerFactory.getILoggerFactory();
            StartupTrace.mark("warm-up: logging configured");
        } finally {
            LOGGING.countDown();
        }
        if (!plans) {
            return;
        }
        try {
            StartupTrace.untraced(StartupWarmup::plan);
            StartupTrace.mark("warm-up: planner loaded");
        } catch (RuntimeException e) {
            // nothing lost: the job's own planning reports what is wrong
        }
    }
}
