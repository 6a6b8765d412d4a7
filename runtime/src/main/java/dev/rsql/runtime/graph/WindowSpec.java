package dev.rsql.runtime.graph;

/**
 * How rows are put into windows: TUMBLE(size), HOP(slide, size), CUMULATE(step, max size) or SESSION(gap), on an
 * event-time field (with watermarks) or on processing time. Times are milliseconds; windows are aligned to the epoch
 * plus {@code offset}.
 */
public record WindowSpec(Kind kind, int timeField, boolean eventTime, long size, long slide, long offset) {

    public enum Kind { TUMBLE, HOP, CUMULATE, SESSION }

    public static WindowSpec tumble(int timeField, boolean eventTime, long size) {
        return new WindowSpec(Kind.TUMBLE, timeField, eventTime, size, size, 0);
    }

    public static WindowSpec hop(int timeField, boolean eventTime, long slide, long size) {
        return new WindowSpec(Kind.HOP, timeField, eventTime, size, slide, 0);
    }

    public static WindowSpec cumulate(int timeField, boolean eventTime, long step, long maxSize) {
        return new WindowSpec(Kind.CUMULATE, timeField, eventTime, maxSize, step, 0);
    }

    /** {@code size} is the gap: a session ends when no row arrives for that long. */
    public static WindowSpec session(int timeField, boolean eventTime, long gap) {
        return new WindowSpec(Kind.SESSION, timeField, eventTime, gap, 0, 0);
    }

    public WindowSpec {
        // HOP windows need not be a multiple of their slide: they are sliced by gcd(size, slide) (see WindowSlices).
        if (size <= 0 || kind == Kind.HOP && slide <= 0 || kind == Kind.CUMULATE && (slide <= 0 || size % slide != 0)) {
            throw new IllegalArgumentException(kind + " window needs a positive size" + (kind == Kind.SESSION ? " (gap)"
                    : kind == Kind.TUMBLE ? "" : kind == Kind.HOP ? " and slide"
                    : " that is a multiple of its positive step")
                    + ", got size " + size + " slide " + slide);
        }
    }

    public boolean isMerging() {
        return kind == Kind.SESSION;
    }

    @Override
    public String toString() {
        String time = (eventTime ? "rowtime" : "proctime") + " $" + timeField;
        switch (kind) {
            case TUMBLE:
                return "TUMBLE(" + time + ", " + size + " ms)";
            case HOP:
                return "HOP(" + time + ", slide " + slide + " ms, size " + size + " ms)";
            case CUMULATE:
                return "CUMULATE(" + time + ", step " + slide + " ms, max " + size + " ms)";
            default:
                return "SESSION(" + time + ", gap " + size + " ms)";
        }
    }
}
