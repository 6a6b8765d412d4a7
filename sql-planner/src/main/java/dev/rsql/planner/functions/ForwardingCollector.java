package dev.rsql.planner.functions;

import org.apache.flink.util.Collector;

import java.lang.reflect.Array;
import java.util.function.Consumer;

/**
 * The collector a Flink/Blink table function emits into: forwards to the consumer of the call in progress. Also
 * hands over the rows a bean table function returns.
 */
public final class ForwardingCollector implements Collector<Object> {

    private Consumer<Object> target;

    /** Set before each call by generated code. */
    public void target(Consumer<Object> target) {
        this.target = target;
    }

    @Override
    public void collect(Object record) {
        if (target == null) {
            throw new IllegalStateException("a table function emitted a row outside of its eval call");
        }
        target.accept(record);
    }

    @Override
    public void close() {
    }

    /** Emits every element of what a bean table function returned (an Iterable or an array); null emits nothing. */
    public static void emitAll(Object rows, Consumer<Object> out) {
        if (rows == null) {
            return;
        }
        if (rows instanceof Iterable) {
            for (Object row : (Iterable<?>) rows) {
                out.accept(row);
            }
        } else if (rows.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(rows); i++) {
                out.accept(Array.get(rows, i));
            }
        } else {
            out.accept(rows);
        }
    }
}
