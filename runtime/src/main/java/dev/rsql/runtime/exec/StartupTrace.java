package dev.rsql.runtime.exec;

import java.lang.management.ManagementFactory;

/**
 * With {@code -Drsql.debug.startup=true}, prints to stderr when each step of starting a job was reached: time since
 * the JVM started, the process's CPU time and the classes loaded so far — where start-up time goes
 * ({@code bench/startup_bench.py --trace}). Off, a mark costs one field read.
 */
public final class StartupTrace {

    private static final boolean ENABLED = Boolean.getBoolean("rsql.debug.startup");

    private StartupTrace() {
    }

    public static boolean enabled() {
        return ENABLED;
    }

    /** Records that {@code step} was reached. */
    public static void mark(String step) {
        if (ENABLED) {
            long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
            long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime() / 1_000_000;
            long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            System.err.printf("startup %6d ms  cpu %6d ms  classes %6d  %s%n", uptime, cpu, classes, step);
        }
    }
}
