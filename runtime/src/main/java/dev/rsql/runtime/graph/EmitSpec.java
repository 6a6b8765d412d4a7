package dev.rsql.runtime.graph;

/**
 * When a window emits results (Blink's {@code EMIT} clause): once when the watermark passes its end (the default),
 * plus early results every {@code earlyDelay} ms of processing time while it is open ({@code WITH DELAY ... BEFORE
 * WATERMARK}; 0 = on every change, -1 = none), and late updates within {@code allowedLateness} after it closed, at most
 * every {@code lateDelay} ms ({@code AFTER WATERMARK}; 0 = on every late row, -1 = none). Early and late results make
 * the output an update stream.
 */
public record EmitSpec(long earlyDelay, long lateDelay, long allowedLateness) {

    public static final EmitSpec ON_WATERMARK = new EmitSpec(-1, -1, 0);

    public EmitSpec {
        if (allowedLateness < 0) {
            throw new IllegalArgumentException("allowed lateness must not be negative");
        }
    }

    public boolean hasEarlyFiring() {
        return earlyDelay >= 0;
    }

    public boolean hasLateFiring() {
        return lateDelay >= 0 && allowedLateness > 0;
    }

    /** True when a window's result can change after it was first emitted. */
    public boolean producesUpdates() {
        return hasEarlyFiring() || hasLateFiring();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("emit on watermark");
        if (hasEarlyFiring()) {
            sb.append(", early every ").append(earlyDelay).append(" ms");
        }
        if (allowedLateness > 0) {
            sb.append(", lateness ").append(allowedLateness).append(" ms");
            if (hasLateFiring()) {
                sb.append(" late every ").append(lateDelay).append(" ms");
            }
        }
        return sb.toString();
    }
}
