package dev.rsql.runtime.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting on a condition, never on the clock: tests poll what they wait for and fail after a timeout. */
public final class Await {

    private Await() {
    }

    /** Checks the condition every few milliseconds until it holds; fails the test after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(() -> what, timeout, condition);
    }

    /** As {@link #until(String, Duration, BooleanSupplier)}; {@code what} is asked for only on failure. */
    public static void until(Supplier<String> what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
