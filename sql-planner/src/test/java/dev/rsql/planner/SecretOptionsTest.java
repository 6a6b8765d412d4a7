package dev.rsql.planner;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.config.Secrets;
import dev.rsql.runtime.graph.SourceNode;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A password option and a value from the environment appear nowhere in what explain prints. */
class SecretOptionsTest {

    private static final String SCRIPT = "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '5', 'password' = 'hunter2-pw', 'owner.note' = '${RSQL_TEST_SEED}');\n"
            + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print');\n"
            + "INSERT INTO shown SELECT id FROM src WHERE id > 1;\n";

    @Test
    void explainAndTableOptionsShowNoSecret() {
        Map<String, String> env = Map.of("RSQL_TEST_SEED", "env-s3cr3t");
        PlannerContext context = new PlannerContext(Options.empty(), getClass().getClassLoader(), env::get);
        PlannedJob job = new ScriptPlanner(context).plan("secrets", SCRIPT);
        String printed = job.graph().explain() + String.join("\n", job.relationalPlans()) + job.generatedSource();
        SourceNode source = job.graph().nodes().stream().filter(SourceNode.class::isInstance)
                .map(SourceNode.class::cast).findFirst().orElseThrow();
        Options options = source.table().options();
        printed += options.toString() + source.table();
        assertFalse(printed.contains("hunter2") || printed.contains("s3cr3t"), printed);
        assertEquals("env-s3cr3t", options.get("owner.note"), "the connector still gets the value");
        assertEquals(Secrets.MASK, options.shown("owner.note"));
        assertTrue(options.toString().contains("password=" + Secrets.MASK), options.toString());
    }

    @Test
    void aConnectorErrorDoesNotQuoteAValueFromTheEnvironment() {
        String script = "CREATE TABLE src (id BIGINT) WITH ('connector' = 'rocketmq', 'topic' = 't', 'nameserver' = '127.0.0.1:9876',"
                + " 'scan.startup.mode' = '${RSQL_TEST_MODE}');\n"
                + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print');\n"
                + "INSERT INTO shown SELECT id FROM src;\n";
        Map<String, String> env = Map.of("RSQL_TEST_MODE", "env-m0de-s3cr3t");
        PlannerContext context = new PlannerContext(Options.empty(), getClass().getClassLoader(), env::get);
        PlanningException e = assertThrows(PlanningException.class,
                () -> new ScriptPlanner(context).plan("secrets", script));
        assertTrue(e.getMessage().contains("scan.startup.mode"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
        assertTrue(e.getMessage().contains(Secrets.MASK), e.getMessage());
    }

    /** A path from the environment: masked where an error quotes it, or its part from the environment. */
    @Test
    void pathErrorsMaskTheValueFromTheEnvironmentAndNothingElse(@TempDir Path dir) throws Exception {
        Map<String, String> env = Map.of("RP_SK", "SuperSecretProbe123", "NEXMARK_PATH", "x");
        PlannerContext context = new PlannerContext(Options.empty(), getClass().getClassLoader(), env::get);
        PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(context).plan("p",
                "CREATE TABLE nexmark (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${NEXMARK_PATH}',"
                        + " 'format' = 'json');\n"
                        + "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'print');\n"
                        + "INSERT INTO shown SELECT id FROM nexmark;\n"));
        // the value x is masked where it stands alone, never inside "nexmark" or "exist"
        assertTrue(e.getMessage().contains("file source of table nexmark: path '" + Secrets.MASK + "' does not exist"),
                e.getMessage());

        // a sink under a directory that cannot be made: the error quotes the path and, from the file system, its
        // parent, which holds only part of the value
        Files.writeString(dir.resolve("proc"), "a file, not a directory");
        PlannedJob job = new ScriptPlanner(context).plan("p",
                "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3');\n"
                        + "CREATE TABLE o (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '" + dir
                        + "/proc/${RP_SK}/x.txt', 'format' = 'json');\n"
                        + "INSERT INTO o SELECT id FROM g;\n");
        JobInstance instance = new JobInstance(job.graph(), new EngineContext(new Options(Map.of("state.dir",
                dir.resolve("state").toString())), getClass().getClassLoader()));
        Exception failure = assertThrows(Exception.class, instance::start);
        String message = String.valueOf(failure.getMessage());
        assertTrue(message.contains("file sink of table o: cannot prepare"), message);
        assertFalse(message.contains("SuperSecret"), message);
        assertTrue(message.contains("/proc/" + Secrets.MASK), message);
    }
}
