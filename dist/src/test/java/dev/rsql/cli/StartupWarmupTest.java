package dev.rsql.cli;

import dev.rsql.planner.PlannedJob;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class StartupWarmupTest {

    /**
     * The warm-up ignores its own failures (the job's planning reports them): a script that stopped planning would
     * warm nothing up, unnoticed. It compiles a calc, so the Java compiler is loaded too.
     */
    @Test
    void theWarmUpScriptPlansAndCompilesACalc() {
        PlannedJob job = StartupWarmup.plan();
        assertEquals(1, job.physicalPlans().size(), job.physicalPlans().toString());
        assertNotNull(job.generatedSource());
    }
}
