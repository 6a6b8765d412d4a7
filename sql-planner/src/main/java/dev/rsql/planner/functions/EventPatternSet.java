package dev.rsql.planner.functions;

import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.EventPatternIndex;
import org.apache.calcite.linq4j.function.Deterministic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The event patterns all the rules of a job test one column with ({@code EVENT_MATCHES(event, '...')}), matched
 * together: the first test of a record runs the column's {@link EventPatternIndex} on the event (parsed once for all
 * event functions, {@link EventFunctions#parse}), which finds every matching pattern at once; the other rules' tests of the same record read the answer. Generated code
 * finds its set by name ({@link #named}), registered when the job's calcs are compiled.
 */
public final class EventPatternSet {

    private static final Map<String, EventPatternSet> REGISTERED = new ConcurrentHashMap<>();

    private final EventPatternIndex index;
    private final PerThread<Scratch> scratch;

    private EventPatternSet(EventPatternIndex index) {
        this.index = index;
        this.scratch = new PerThread<>(Scratch::new);
    }

    /** The set registered under {@code name} (called once per generated class, from its static initializer). */
    @Deterministic
    public static EventPatternSet named(String name) {
        EventPatternSet set = REGISTERED.get(name);
        if (set == null) {
            throw new IllegalStateException("event pattern set " + name + " was not registered");
        }
        return set;
    }

    /** True when the event (JSON text) matches pattern {@code pattern} (in the order they were added). */
    public boolean matches(String event, int pattern) {
        return scratch(event).matched[pattern];
    }

    /**
     * Lists in {@code out} (as long as {@link #size}) the patterns the event matches and returns how many: the
     * match {@link #matches} does for the same string, done once per string.
     */
    public int matchedIn(String event, int[] out) {
        Scratch s = scratch(event);
        System.arraycopy(s.ids, 0, out, 0, s.count);
        return s.count;
    }

    public int size() {
        return index.size();
    }

    private Scratch scratch(String event) {
        Scratch s = scratch.get();
        if (s.input != event) {
            s.load(event);
        }
        return s;
    }

    /** One thread's last event and the patterns it matched. */
    private final class Scratch {
        final EventPatternIndex.Matcher matcher = index.matcher();
        final boolean[] matched = new boolean[index.size()];
        final int[] ids = new int[index.size()];
        int count;
        String input;

        void load(String event) {
            for (int i = 0; i < count; i++) {
                matched[ids[i]] = false;
            }
            count = matcher.match(EventFunctions.parse(event), ids);
            for (int i = 0; i < count; i++) {
                matched[ids[i]] = true;
            }
            input = event;
        }
    }

    /** Collects a column's patterns while calcs are rewritten. */
    public static final class Builder {
        private final List<EventPattern> patterns = new ArrayList<>();
        private final Map<String, Integer> indexes = new HashMap<>();

        /** Adds a pattern (compiled, so a malformed one fails here); returns its index, the same for the same text. */
        public int add(String pattern) {
            EventPattern compiled = EventPattern.compile(pattern);
            return indexes.computeIfAbsent(pattern, p -> {
                patterns.add(compiled);
                return patterns.size() - 1;
            });
        }

        /** Builds the set and registers it under {@code name} for {@link #named}. */
        public void register(String name) {
            REGISTERED.put(name, new EventPatternSet(EventPatternIndex.of(patterns)));
        }
    }
}
