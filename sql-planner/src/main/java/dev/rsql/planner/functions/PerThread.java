package dev.rsql.planner.functions;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One instance of some scratch state per thread, for state shared by a job's generated classes: the first thread
 * to ask gets its instance without a {@link ThreadLocal} lookup (most jobs use it from one thread), others from one.
 */
final class PerThread<T> {

    private final Supplier<T> factory;
    private final AtomicReference<Owned<T>> first = new AtomicReference<>();
    private final ThreadLocal<T> others;

    private record Owned<T>(Thread thread, T value) {
    }

    PerThread(Supplier<T> factory) {
        this.factory = factory;
        this.others = ThreadLocal.withInitial(factory);
    }

    T get() {
        Owned<T> f = first.get();
        Thread t = Thread.currentThread();
        if (f != null && f.thread == t) {
            return f.value;
        }
        if (f == null) {
            Owned<T> mine = new Owned<>(t, factory.get());
            if (first.compareAndSet(null, mine)) {
                return mine.value;
            }
        }
        return others.get();
    }
}
