package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * TUMBLE and unsliced HOP windows (each row carries its windows) over randomized rows of several keys, out of order
 * within the watermark and some late, compared with each row put into each of its windows directly; in one run and
 * restored from a checkpoint taken halfway. {@link WindowJob} caches only 3 (key, window) pairs, so windows also go to
 * state and back while open.
 */
class WindowAggregateOperatorTest {

    static WindowJob job(WindowSpec window) {
        return new WindowJob("windows", SlicingWindowAggregateOperatorTest.DELAY, (s, late) -> s.window(window)
                .exchange(0).windowAggregate(new int[]{0}, 4, 5, true, false, WindowJob.aggregates(),
                        EmitSpec.ON_WATERMARK, WindowJob.RESULT, late));
    }

    private static void check(WindowSpec window, WindowSpec asHop, long seed, boolean restore, Path dir)
            throws Exception {
        SlicingWindowAggregateOperatorTest.check(job(window), asHop, seed, restore, dir);
    }

    @Test
    void randomizedTumblingAndHoppingWindows(@TempDir Path dir) throws Exception {
        check(WindowSpec.tumble(2, true, 3000), WindowSpec.hop(2, true, 3000, 3000), 40, false, dir.resolve("t"));
        check(WindowSpec.hop(2, true, 2000, 6000), WindowSpec.hop(2, true, 2000, 6000), 41, false, dir.resolve("h"));
    }

    @Test
    void windowsRestoredFromACheckpointFireWithTheirRows(@TempDir Path dir) throws Exception {
        check(WindowSpec.tumble(2, true, 3000), WindowSpec.hop(2, true, 3000, 3000), 42, true, dir.resolve("t"));
        check(WindowSpec.hop(2, true, 2000, 6000), WindowSpec.hop(2, true, 2000, 6000), 43, true, dir.resolve("h"));
    }
}
