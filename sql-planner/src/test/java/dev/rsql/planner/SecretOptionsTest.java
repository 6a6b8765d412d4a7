package dev.rsql.planner;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.config.Secrets;
import dev.rsql.runtime.graph.SourceNode;
import org.junit.jupiter.api.Test;

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
}
