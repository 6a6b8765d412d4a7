package dev.rsql.planner.rulefile;

import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.PlanningException;
import dev.rsql.planner.ScriptPlanner;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rule files parsed and turned into SQL: YAML and JSON, every transform, and the mistakes with their place. */
class RuleFileTest {

    private static final String JSON_FILE = """
            {
              "bus": {"connector": "datagen", "name": "events"},
              "targets": {"out": {"connector": "print"}},
              "rules": [
                {"name": "vip", "pattern": {"data": {"vip": [true], "level": [3, 4.5, null]}},
                 "transform": {"constant": "它是 VIP"}, "target": "out"}
              ]
            }
            """;

    @Test
    void aJsonRuleFileIsReadLikeYaml() {
        String sql = RuleFileScript.sql("x.rules.json", JSON_FILE);
        assertTrue(sql.contains("CREATE TABLE `events` (`event` STRING) WITH ('connector' = 'datagen', 'format' = 'raw');"),
                sql);
        assertTrue(sql.contains("INSERT INTO `out`\nSELECT '它是 VIP'\nFROM `events`\nWHERE EVENT_MATCHES(`event`, "
                + "'{\"data\":{\"vip\":[true],\"level\":[3,4.5,null]}}');"), sql);
        new ScriptPlanner(PlannerContext.defaults()).plan("x", sql);
    }

    @Test
    void yamlScalarsBecomeJsonOfTheirType() {
        RuleFile f = RuleFile.parse("bus: {connector: datagen}\ntargets: {t: {connector: print}}\nrules:\n"
                + "  - {name: a, pattern: {n: [1, 2.5], b: [yes, false], s: ['1', it's], z: [~]}, targets: t}\n");
        assertEquals("{\"n\":[1,2.5],\"b\":[true,false],\"s\":[\"1\",\"it's\"],\"z\":[null]}",
                f.rules().get(0).pattern());
        assertEquals("bus", f.busName());
        assertEquals(RuleFile.Transform.Kind.EVENT, f.rules().get(0).transform().kind());
    }

    @Test
    void mistakesNameTheirPlace() {
        String head = "bus: {connector: datagen}\ntargets: {t: {connector: print}}\nrules:\n";
        assertError(head + "  - {name: a, pattern: {x: [1]}, targets: t}\n  - {name: a, pattern: {x: [2]}, targets: t}\n",
                "line 5, column 5: a second rule named 'a'");
        assertError(head + "  - {name: a, targets: t}\n", "line 4, column 5: rule 'a' has no pattern");
        assertError(head + "  - {name: a, pattern: {x: [1]}}\n", "line 4, column 5: rule 'a' has no targets");
        assertError(head + "  - {name: a, pattern: {x: [1]}, targets: t, transform: {path: data.x}}\n",
                "rule 'a': a path starts with $");
        assertError("bus: {topic: x}\ntargets: {t: {connector: print}}\nrules: []\n", "line 1, column 6: bus has no connector");
        assertError("bus: {connector: datagen}\nrules: []\n", "the rule file has no 'targets'");
        assertError("bus: {connector: datagen}\ntargets: {t: {connector: print}}\nrule: []\n",
                "line 3, column 1: the rule file: unknown key 'rule'; did you mean 'rules'?");
    }

    private static void assertError(String text, String expected) {
        PlanningException e = assertThrows(PlanningException.class, () -> RuleFile.parse(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
