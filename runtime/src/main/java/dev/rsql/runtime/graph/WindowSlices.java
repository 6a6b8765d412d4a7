package dev.rsql.runtime.graph;

/**
 * HOP and CUMULATE windows cut into slices, as Flink's slicing window aggregation does: time is split into slices of
 * gcd(size, slide) (HOP) or of the step (CUMULATE), a row belongs to exactly one slice, and a window is the run of
 * consecutive slices between its start and end. A slice is named by its end. Window ends are aligned like the
 * windows of {@link WindowSpec} (epoch plus offset).
 */
public final class WindowSlices {

    private final WindowSpec window;
    private final long sliceSize;

    public WindowSlices(WindowSpec window) {
        if (window.kind() != WindowSpec.Kind.HOP && window.kind() != WindowSpec.Kind.CUMULATE) {
            throw new IllegalArgumentException("only HOP and CUMULATE windows are sliced, not " + window);
        }
        this.window = window;
        this.sliceSize = window.kind() == WindowSpec.Kind.HOP ? gcd(window.size(), window.slide()) : window.slide();
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    public WindowSpec window() {
        return window;
    }

    public long sliceSize() {
        return sliceSize;
    }

    /** Start of the slice a time falls into. */
    public long sliceStart(long time) {
        return time - Math.floorMod(time - window.offset(), sliceSize);
    }

    /** Start of the window ending at {@code windowEnd}. */
    public long windowStart(long windowEnd) {
        if (window.kind() == WindowSpec.Kind.HOP) {
            return windowEnd - window.size();
        }
        return windowEnd - 1 - Math.floorMod(windowEnd - 1 - window.offset(), window.size());
    }

    /** End of the first window that contains the slice ending at {@code sliceEnd}. */
    public long firstWindowEnd(long sliceEnd) {
        if (window.kind() == WindowSpec.Kind.HOP) {
            // window starts are aligned to the slide, so ends are too when shifted back by the size
            return sliceEnd + Math.floorMod(window.offset() + window.size() - sliceEnd, window.slide());
        }
        return sliceEnd;
    }

    /** End of the last window that contains the slice ending at {@code sliceEnd}: the slice can go once it fired. */
    public long lastWindowEnd(long sliceEnd) {
        if (window.kind() == WindowSpec.Kind.HOP) {
            long sliceStart = sliceEnd - sliceSize;
            return sliceStart - Math.floorMod(sliceStart - window.offset(), window.slide()) + window.size();
        }
        return windowStart(sliceEnd) + window.size();
    }

    /** End of the window after the one ending at {@code windowEnd} (windows containing one slice follow this way). */
    public long nextWindowEnd(long windowEnd) {
        return windowEnd + (window.kind() == WindowSpec.Kind.HOP ? window.slide() : sliceSize);
    }

    @Override
    public String toString() {
        return window + " in slices of " + sliceSize + " ms";
    }
}
