package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EVENT_MATCHES and EVENT_TEMPLATE in scripts: rules over a bus of JSON events, and their plan-time checks. */
class EventFunctionsSqlTest {

    private static final String EVENTS = "CREATE TABLE bus (id INT, event VARCHAR) WITH (type = 'values', id = '%s');\n";

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Test
    void rulesRouteEventsByTheirPatterns() throws Exception {
        String id = "bus-" + UUID.randomUUID();
        String[] events = {
                "{\"source\":\"shop\",\"type\":\"order.created\",\"data\":{\"amount\":150,\"city\":\"北京\",\"ip\":\"10.1.2.3\"}}",
                "{\"source\":\"shop\",\"type\":\"order.created\",\"data\":{\"amount\":15.0,\"city\":\"上海\",\"ip\":\"8.8.8.8\"}}",
                "{\"source\":\"shop\",\"type\":\"order.cancelled\",\"data\":{\"amount\":1e3,\"tags\":[\"vip\",\"风控\"]}}",
                "{\"source\":\"auth\",\"type\":\"login.failed\",\"data\":{\"user\":\"张三\",\"ip\":\"10.9.9.9\"}}",
                "not json at all",
        };
        List<String> payloads = new java.util.ArrayList<>();
        for (int i = 0; i < events.length; i++) {
            payloads.add("{\"id\":" + i + ",\"event\":" + json(events[i]) + "}");
        }
        ValuesSourceFactory.register(id, payloads);
        String script = String.format(EVENTS, id)
                + sink("big", "id INT") + sink("internal", "id INT") + sink("risky", "id INT")
                + sink("notes", "id INT, note VARCHAR")
                + "INSERT INTO big SELECT id FROM bus WHERE EVENT_MATCHES(event,\n"
                + "  '{\"source\": [\"shop\"], \"data\": {\"amount\": [{\"numeric\": [\">=\", 100]}]}}');\n"
                + "INSERT INTO internal SELECT id FROM bus WHERE EVENT_MATCHES(event, '{\"data\":{\"ip\":[{\"cidr\":\"10.0.0.0/8\"}]}}');\n"
                + "INSERT INTO risky SELECT id FROM bus WHERE EVENT_MATCHES(event, '{\"$or\": [{\"type\": [{\"suffix\": \".failed\"}]},"
                + " {\"data\": {\"tags\": [\"风控\"]}}]}');\n"
                + "INSERT INTO notes SELECT id, EVENT_TEMPLATE(event, '{\"who\": \"$.data.user\", \"t\": \"$.type\", \"k\": \"告警\"}',"
                + " '${k}: ${t} by ${who}') FROM bus WHERE EVENT_MATCHES(event, '{\"type\": [{\"prefix\": \"login.\"}]}')"
                + " OR EVENT_MATCHES(event, '{\"data\": {\"city\": [\"上海\"]}}');\n";
        // with the patterns of all rules matched together by one index per column, and each on its own
        for (String setting : List.of("", "SET 'table.optimizer.multi-pattern.enabled' = 'false';\n")) {
            Map<String, List<Row>> out = run(setting + script, "big", "internal", "risky", "notes");
            assertEquals(List.of("[0]", "[2]"), rows(out.get("big")), setting);
            assertEquals(List.of("[0]", "[3]"), rows(out.get("internal")), setting);
            assertEquals(List.of("[2]", "[3]"), rows(out.get("risky")), setting);
            assertEquals(List.of("[1, 告警: order.created by ${who}]", "[3, 告警: login.failed by 张三]"),
                    rows(out.get("notes")), setting);
        }
        String plan = script.replace("${RUN}", "plan-only");
        String on = new ScriptPlanner(PlannerContext.defaults()).plan("t", plan).generatedSource();
        String off = new ScriptPlanner(PlannerContext.defaults())
                .plan("t", "SET 'table.optimizer.multi-pattern.enabled' = 'false';\n" + plan).generatedSource();
        assertTrue(on.contains("EventPatternSet.named("), on);
        assertFalse(off.contains("EventPatternSet"), off);
        // the rule set's index selects the rules by the patterns an event matches
        String explain = new ScriptPlanner(PlannerContext.defaults()).plan("t", plan).explain();
        assertTrue(explain.contains("event(4 by event pattern)"), explain);
    }

    @Test
    void aMalformedPatternFailsAtPlanTimeWhereTheMistakeIs() {
        String head = (String.format(EVENTS, "none") + sink("o", "id INT")).replace("${RUN}", "plan-only");
        PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", head + "INSERT INTO o SELECT id FROM bus WHERE EVENT_MATCHES(event, '{\"a\": [{\"prefx\": \"x\"}]}')"));
        assertEquals("line 3, column 70: EVENT_MATCHES pattern, line 1, column 9: unknown operator \"prefx\""
                + " (did you mean \"prefix\"?)", e.getMessage());
        e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", head + "INSERT INTO o SELECT id FROM bus WHERE EVENT_MATCHES(event,\n'{\n  \"城市\": \"北京\"\n}')"));
        assertEquals("line 5, column 9: EVENT_MATCHES pattern, line 2, column 9: the conditions of field \"城市\" are a"
                + " JSON array, e.g. [\"北京\"]; found the string \"北京\"", e.getMessage());
        e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", head + "INSERT INTO o SELECT id FROM bus WHERE EVENT_MATCHES(event, event)"));
        assertEquals("line 3, column 61: EVENT_MATCHES takes its pattern as a string literal", e.getMessage());
        e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", head + "INSERT INTO o SELECT id FROM bus WHERE EVENT_TEMPLATE(event, '{\"u\": \"$.a[x]\"}', '') = ''"));
        assertEquals("line 3, column 69: EVENT_TEMPLATE variables, line 1, column 7: variable \"u\": \"$.a[x]\" is not"
                + " a definite path: use .name, ['name'] or [n] steps", e.getMessage());
    }
}
