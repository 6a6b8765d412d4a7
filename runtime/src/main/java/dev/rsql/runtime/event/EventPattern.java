package dev.rsql.runtime.event;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;

/**
 * A compiled event pattern in EventBridge's JSON pattern language, with the semantics of AWS event-ruler 2.0.1:
 * exact values, {@code prefix}, {@code suffix}, {@code equals-ignore-case}, {@code wildcard}, {@code anything-but},
 * {@code numeric}, {@code exists}, {@code cidr}, {@code exactly} and {@code $or} (see docs/events.md). Immutable and
 * safe to share between threads.
 */
public final class EventPattern {

    /** What {@link #parseEvent} returns for text that is not JSON. */
    public static final Object INVALID = new Object();

    private final String text;
    private final ObjectMatcher root;

    EventPattern(String text, ObjectMatcher root) {
        this.text = text;
        this.root = root;
    }

    /** @throws EventPatternException naming the line and column in {@code text} of the first mistake */
    public static EventPattern compile(String text) {
        return EventPatternCompiler.compile(text);
    }

    /** An event as JSON text parsed into maps, lists and scalars, or {@link #INVALID}. */
    public static Object parseEvent(String json) {
        if (json.isBlank()) {
            return INVALID;
        }
        try {
            Object event = JSON.parse(json);
            return event == null && !json.strip().equals("null") ? INVALID : event;
        } catch (JSONException | NumberFormatException e) {
            return INVALID;
        }
    }

    /** True when a parsed event ({@link #parseEvent}, or maps and lists of scalars) matches. */
    public boolean matches(Object event) {
        return event != INVALID && root.matches(event);
    }

    ObjectMatcher root() {
        return root;
    }

    /** The pattern's text as written. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
