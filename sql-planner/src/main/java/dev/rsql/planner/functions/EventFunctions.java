package dev.rsql.planner.functions;

import dev.rsql.runtime.event.EventPattern;
import dev.rsql.runtime.event.TemplateVariables;
import org.apache.calcite.linq4j.function.Deterministic;

/**
 * EventBridge-style event functions: {@code EVENT_MATCHES} (a JSON event pattern) and {@code EVENT_TEMPLATE} (a
 * template transform). Their pattern and variables are string literals, checked when the script is planned
 * ({@link EventLiterals}) and compiled once per job (the generated calls of {@link #pattern} and {@link #variables}
 * on a literal are hoisted). The rules of one record share its parse: the event text parsed last by a thread is
 * kept with the string it came from.
 */
public final class EventFunctions {

    private static final PerThread<LastEvent> LAST = new PerThread<>(LastEvent::new);

    private EventFunctions() {
    }

    /** The event text a thread parsed last, and what it parsed to. */
    private static final class LastEvent {
        String text;
        Object parsed;
    }

    @Deterministic
    public static EventPattern pattern(String text) {
        return EventPattern.compile(text);
    }

    @Deterministic
    public static TemplateVariables variables(String json) {
        return TemplateVariables.compile(json);
    }

    /** EVENT_MATCHES(event, pattern): text that is not JSON matches no pattern. */
    public static boolean eventMatches(String event, EventPattern pattern) {
        return pattern.matches(parse(event));
    }

    /** EVENT_TEMPLATE(event, variables, template): NULL for an event that is not JSON. */
    public static String eventTemplate(String event, TemplateVariables variables, String template) {
        Object parsed = parse(event);
        return parsed == EventPattern.INVALID ? null : variables.render(parsed, template);
    }

    /**
     * The event parsed ({@link EventPattern#parseEvent}), once per event string and thread: EVENT_MATCHES,
     * EVENT_TEMPLATE and the pattern sets of all rules reading one record share its parse.
     */
    static Object parse(String event) {
        LastEvent last = LAST.get();
        if (last.text != event) {
            last.parsed = EventPattern.parseEvent(event);
            last.text = event;
        }
        return last.parsed;
    }
}
