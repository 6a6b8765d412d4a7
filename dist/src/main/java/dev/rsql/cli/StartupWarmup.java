package dev.rsql.cli;

import dev.rsql.planner.codegen.CalcCompiler;
import dev.rsql.runtime.exec.StartupTrace;
import org.slf4j.LoggerFactory;

/**
 * Start-up work that does not depend on the command, done on a second thread while the main one parses the command
 * line and the script: logging's configuration (conf/logback.xml) and the Java compiler's first compilation (loading
 * and linking it), each a few hundred milliseconds of a cold JVM that a job would otherwise wait for.
 */
final class StartupWarmup {

    private StartupWarmup() {
    }

    static void start() {
        Thread t = new Thread(StartupWarmup::run, "rsql-warmup");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        LoggerFactory.getILoggerFactory();
        StartupTrace.mark("warm-up: logging configured");
        CalcCompiler.warmUp();
        StartupTrace.mark("warm-up: compiler loaded");
    }
}
