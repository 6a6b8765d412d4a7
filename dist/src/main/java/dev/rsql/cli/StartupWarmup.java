package dev.rsql.cli;

import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.runtime.exec.StartupTrace;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CountDownLatch;

/**
 * Start-up work that does not depend on the command, done on a second thread while the main one builds the command
 * line and reads the script: logging's configuration (conf/logback.xml) and the Java compiler's first compilation
 * (loading and linking it), each a few hundred milliseconds of a cold JVM that a job would otherwise wait for.
 */
final class StartupWarmup {

    private static final CountDownLatch LOGGING = new CountDownLatch(1);

    private StartupWarmup() {
    }

    static void start() {
        Thread t = new Thread(StartupWarmup::run, "rsql-warmup");
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

    private static void run() {
        try {
            LoggerFactory.getILoggerFactory();
            StartupTrace.mark("warm-up: logging configured");
        } finally {
            LOGGING.countDown();
        }
        try {
            CalcCompiler.warmUp();
            StartupTrace.mark("warm-up: compiler loaded");
        } catch (RuntimeException e) {
            // nothing lost: the job's own compilation reports what is wrong
        }
    }
}
