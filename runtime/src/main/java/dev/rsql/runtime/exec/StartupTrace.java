package dev.rsql.runtime.exec;

import java.lang.management.ManagementFactory;

/**
 * With {@code -Drsql.debug.startup=true}, prints to stderr when each step of starting a job was reached: time since
 * the JVM started, the process's CPU time, the marking thread's CPU time (the main thread's is the critical path when
 * the machine has idle cores: the process's includes the JIT compilers and the warm-up thread) and the classes loaded
 * so far — where start-up time goes ({@code bench/startup_bench.py --trace}). Off, a mark costs one field read.
 */
public final class StartupTrace {

    private static final boolean ENABLED = Boolean.getBoolean("rsql.debug.startup");
    /** Set on a thread whose steps are not the job's (warm-up work that plans a script of its own). */
    private static final ThreadLocal<Boolean> MUTED = ThreadLocal.withInitial(() -> false);

    private StartupTrace() {
    }

    public static boolean enabled() {
        return ENABLED;
    }

    /** Runs {@code work} on this thread without recording its steps. */
    public static void untraced(Runnable work) {
        MUTED.set(true);
        try {
            work.run();
        } finally {
            MUTED.remove();
        }
    }

    /** Records that {@code step} was reached. */
    public static void mark(String step) {
        if (ENABLED && !MUTED.get()) {
            long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
            long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime() / 1_000_000;
            long thread = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000;
            long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
            System.err.printf("startup %6d ms  cpu %6d ms  thread %6d ms  classes %6d  %s%n", uptime, cpu, thread,
                    classes, step);
        }
    }
}
