package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many rule INSERTs over one source: the rows are the same whether their LIKE and REGEXP tests are matched per
 * column together ({@code table.optimizer.multi-pattern.enabled}, the default) or each on its own, and the same as
 * java.util.regex and a plain LIKE reading computed here.
 */
class MultiPatternSqlTest {

    private static final String[] WORDS = {"/etc/passwd", "UNION select", "union%20SELECT", "../", "admin", "nmap",
            "NiKtO", "10.", "185.220.101.", "${jndi:", "_x", "a%b", "cmd=", ".php?", "é", "/", " ", "curl | sh"};

    /** Rule name, WHERE clause, and the same test in Java over (url, ua). */
    private record Rule(String name, String where, java.util.function.BiPredicate<String, String> test) {
    }

    private static boolean find(String regex, String s) {
        return s != null && java.util.regex.Pattern.compile(regex).matcher(s).find();
    }

    private static final List<Rule> RULES = List.of(
            new Rule("r1", "url LIKE '%/etc/passwd%'", (u, a) -> u != null && u.contains("/etc/passwd")),
            new Rule("r2", "REGEXP(url, '(?i)union(\\s|%20|\\+)+select')",
                    (u, a) -> find("(?i)union(\\s|%20|\\+)+select", u)),
            new Rule("r3", "url LIKE '%../%' OR ua LIKE 'nmap%'",
                    (u, a) -> u != null && u.contains("../") || a != null && a.startsWith("nmap")),
            new Rule("r4", "REGEXP(ua, '(?i)(nmap|nikto)') AND ua NOT LIKE '%admin%'",
                    (u, a) -> find("(?i)(nmap|nikto)", a) && !a.contains("admin")),
            new Rule("r5", "url NOT LIKE '10.%' AND url LIKE '%cmd=%'",
                    (u, a) -> u != null && !u.startsWith("10.") && u.contains("cmd=")),
            new Rule("r6", "url LIKE '%a\\%b%' ESCAPE '\\' OR url LIKE '%\\_x' ESCAPE '\\'",
                    (u, a) -> u != null && (u.contains("a%b") || u.endsWith("_x"))),
            new Rule("r7", "REGEXP(LOWER(ua), 'ni.to') OR REGEXP(url, '\\.(php|aspx?)\\?')",
                    (u, a) -> find("ni.to", a == null ? null : a.toLowerCase()) || find("\\.(php|aspx?)\\?", u)),
            new Rule("r8", "REGEXP(url, '(') IS NULL AND url LIKE '185.220.101.%'",
                    (u, a) -> u != null && u.startsWith("185.220.101.")),
            new Rule("r9", "url NOT LIKE '10.%' AND REGEXP(url, 'curl[^|]*\\|\\s*sh')",
                    (u, a) -> u != null && !u.startsWith("10.") && find("curl[^|]*\\|\\s*sh", u)),
            new Rule("r10", "url LIKE '%${jndi:%' OR ua LIKE '%${jndi:%' OR url LIKE '_/%'",
                    (u, a) -> u != null && (u.contains("${jndi:") || u.length() >= 2 && u.charAt(1) == '/')
                            || a != null && a.contains("${jndi:")));

    private static String random(Random r) {
        if (r.nextInt(10) == 0) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(WORDS[r.nextInt(WORDS.length)]);
            if (r.nextBoolean()) {
                b.append((char) ('a' + r.nextInt(26)));
            }
        }
        return b.toString();
    }

    private static String json(String s) {
        return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Test
    void rulesGiveTheSameRowsWithTheMultiPatternMatcherOnAndOff() throws Exception {
        Random r = new Random(1313);
        List<List<String>> shards = new ArrayList<>();
        List<String> url = new ArrayList<>();
        List<String> ua = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            List<String> payloads = new ArrayList<>();
            for (int i = 0; i < 1500; i++) {
                String u = random(r);
                String a = random(r);
                url.add(u);
                ua.add(a);
                payloads.add("{\"id\":" + url.size() + ",\"url\":" + json(u) + ",\"ua\":" + json(a) + ",\"n\":"
                        + r.nextInt(20) + "}");
            }
            shards.add(payloads);
        }
        String id = "rules-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, shards.get(0), shards.get(1));
        StringBuilder script = new StringBuilder("CREATE TABLE logs (id INT, url VARCHAR, ua VARCHAR, n INT) WITH (type = 'values', id = '"
                + id + "');\n");
        String[] sinks = new String[RULES.size()];
        for (int i = 0; i < RULES.size(); i++) {
            Rule rule = RULES.get(i);
            sinks[i] = rule.name();
            script.append(sink(rule.name(), "id INT")).append("INSERT INTO ").append(rule.name())
                    .append(" SELECT id FROM logs WHERE ").append(rule.where()).append(";\n");
        }
        Map<String, List<Row>> on = run(script.toString(), sinks);
        Map<String, List<Row>> off = run("SET 'table.optimizer.multi-pattern.enabled' = 'false';\n" + script, sinks);
        for (Rule rule : RULES) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < url.size(); i++) {
                if (rule.test().test(url.get(i), ua.get(i))) {
                    expected.add("[" + (i + 1) + "]");
                }
            }
            expected.sort(null);
            assertFalse(expected.isEmpty(), rule.name() + " matches some rows");
            assertTrue(expected.size() < url.size() / 2, rule.name() + " does not match most rows");
            assertEquals(expected, rows(on.get(rule.name())), rule.name() + " with the multi-pattern matcher");
            assertEquals(expected, rows(off.get(rule.name())), rule.name() + " without it");
        }
    }

    @Test
    void theSettingChoosesTheGeneratedTests() {
        String script = ("CREATE TABLE logs (url VARCHAR) WITH (type = 'values', id = 'none');\n"
                + sink("a", "url VARCHAR") + sink("b", "url VARCHAR")
                + "INSERT INTO a SELECT url FROM logs WHERE url LIKE '%x%';\n"
                + "INSERT INTO b SELECT url FROM logs WHERE REGEXP(url, 'y+z');\n").replace("${RUN}", "plan-only");
        String on = new ScriptPlanner(PlannerContext.defaults()).plan("t", script).generatedSource();
        String off = new ScriptPlanner(PlannerContext.defaults())
                .plan("t", "SET 'table.optimizer.multi-pattern.enabled' = 'false';\n" + script).generatedSource();
        assertTrue(on.contains("PatternSet.named("), on);
        assertFalse(off.contains("PatternSet"), off);
    }
}
