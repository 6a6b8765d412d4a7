package dev.rsql.sdk.dsl;

import dev.rsql.runtime.graph.WindowSpec;

import java.time.Duration;

/**
 * How a keyed stream is cut into windows: tumbling, hopping (sliding by a step) or session (closed by a gap), on the
 * stream's event time (see {@link RStream#assignTimestamps}: a window closes when the watermark passes its end) or, with
 * {@link #processingTime()}, on the clock of the task. Immutable.
 */
public final class Window {

    private final WindowSpec.Kind kind;
    private final long size;
    private final long slide;
    private final boolean eventTime;

    private Window(WindowSpec.Kind kind, long size, long slide, boolean eventTime) {
        this.kind = kind;
        this.size = size;
        this.slide = slide;
        this.eventTime = eventTime;
        spec(0);   // checks the sizes now, not when the job starts
    }

    /** Fixed-size, non-overlapping windows ({@code TUMBLE}). */
    public static Window tumbling(Duration size) {
        return new Window(WindowSpec.Kind.TUMBLE, size.toMillis(), size.toMillis(), true);
    }

    /** Windows of {@code size} starting every {@code slide} ({@code HOP}); size must be a multiple of slide. */
    public static Window hopping(Duration size, Duration slide) {
        return new Window(WindowSpec.Kind.HOP, size.toMillis(), slide.toMillis(), true);
    }

    /** Per key, a window that closes when no element arrives for {@code gap} ({@code SESSION}). */
    public static Window session(Duration gap) {
        return new Window(WindowSpec.Kind.SESSION, gap.toMillis(), 0, true);
    }

    /** The same windows on processing time: the clock when an element reaches the window. */
    public Window processingTime() {
        return new Window(kind, size, slide, false);
    }

    public boolean isEventTime() {
        return eventTime;
    }

    boolean isSession() {
        return kind == WindowSpec.Kind.SESSION;
    }

    /** The runtime's window over the given time field. */
    WindowSpec spec(int timeField) {
        switch (kind) {
            case TUMBLE:
                return WindowSpec.tumble(timeField, eventTime, size);
            case HOP:
                return WindowSpec.hop(timeField, eventTime, slide, size);
            default:
                return WindowSpec.session(timeField, eventTime, size);
        }
    }

    @Override
    public String toString() {
        return spec(0).toString();
    }
}
