package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random rule sets over one JSON source: many INSERTs sharing predicates (LIKE, REGEXP, =, IN, ranges, IS NULL over
 * columns with NULLs) give each sink the rows a three-valued evaluation written here gives, with the source
 * decoding only the columns the rules read ({@code table.optimizer.projection-pushdown.enabled}) or all of them,
 * and with the multi-pattern matcher on or off. Fields no rule reads may be malformed or huge.
 */
class RuleSetSqlTest {

    private static final String[] WORDS = {"/etc/passwd", "admin", "../", "nmap", "NiKtO", "10.", "cmd=", ".php?",
            "curl | sh", "x", "é"};
    private static final String[] HOSTS = {"web-1", "web-2", "db-1", "", "WEB-3"};

    /** One test of a row: SQL text and its value (null = UNKNOWN) under SQL's three-valued logic. */
    private record Atom(String sql, Function<Object[], Boolean> eval) {
    }

    /** A row of the source: id, url, ua, host, n (null where the JSON had null). */
    private static Object[] randomRow(Random r, int id) {
        return new Object[]{id, text(r), text(r), r.nextInt(6) == 0 ? null : HOSTS[r.nextInt(HOSTS.length)],
                r.nextInt(8) == 0 ? null : r.nextInt(30)};
    }

    private static String text(Random r) {
        if (r.nextInt(8) == 0) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = r.nextInt(4); i > 0; i--) {
            b.append(WORDS[r.nextInt(WORDS.length)]);
            if (r.nextBoolean()) {
                b.append((char) ('a' + r.nextInt(4)));
            }
        }
        return b.toString();
    }

    /** A pool of tests, from which the rules draw, so that several rules share each. */
    private static List<Atom> atoms(Random r) {
        List<Atom> pool = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            int col = 1 + r.nextInt(2);
            String name = col == 1 ? "url" : "ua";
            String w = WORDS[r.nextInt(WORDS.length)];
            int k = r.nextInt(30);
            int k2 = k + r.nextInt(10);
            String h = HOSTS[r.nextInt(HOSTS.length)];
            switch (r.nextInt(10)) {
                case 0 -> pool.add(new Atom(name + " LIKE '%" + w + "%'", row -> str(row[col], s -> s.contains(w))));
                case 1 -> pool.add(new Atom(name + " LIKE '" + w + "%'", row -> str(row[col], s -> s.startsWith(w))));
                case 2 -> {
                    String regex = Pattern.quote(w) + "[a-c]?" + (r.nextBoolean() ? "$" : "");
                    String flags = r.nextBoolean() ? "(?i)" : "";
                    Pattern p = Pattern.compile(flags + regex);
                    pool.add(new Atom("REGEXP(" + name + ", '" + flags + regex.replace("'", "''") + "')",
                            row -> str(row[col], s -> p.matcher(s).find())));
                }
                case 3 -> pool.add(new Atom("n = " + k, row -> num(row[4], n -> n == k)));
                case 4 -> pool.add(new Atom("n IN (" + k + ", " + k2 + ", 3)",
                        row -> num(row[4], n -> n == k || n == k2 || n == 3)));
                case 5 -> pool.add(new Atom("n BETWEEN " + k + " AND " + k2,
                        row -> num(row[4], n -> n >= k && n <= k2)));
                case 6 -> pool.add(new Atom("`host` = '" + h + "'", row -> row[3] == null ? null : row[3].equals(h)));
                // costly tests, shared by the rules that use them
                case 7 -> pool.add(new Atom("LOWER(" + name + ") LIKE '%" + w.toLowerCase(Locale.ROOT) + "%'",
                        row -> str(row[col], s -> s.toLowerCase(Locale.ROOT).contains(w.toLowerCase(Locale.ROOT)))));
                case 8 -> pool.add(new Atom("CHAR_LENGTH(" + name + ") > " + k,
                        row -> str(row[col], s -> s.length() > k)));
                default -> pool.add(r.nextBoolean() ? new Atom("`host` IS NULL", row -> row[3] == null)
                        : new Atom("`host` LIKE 'web-%'", row -> str(row[3], s -> s.startsWith("web-"))));
            }
        }
        return pool;
    }

    private static Boolean str(Object v, java.util.function.Predicate<String> p) {
        return v == null ? null : p.test((String) v);
    }

    private static Boolean num(Object v, java.util.function.IntPredicate p) {
        return v == null ? null : p.test((Integer) v);
    }

    private static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        return a == null || b == null ? null : true;
    }

    private static Boolean or(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
            return true;
        }
        return a == null || b == null ? null : false;
    }

    private static Boolean not(Boolean a) {
        return a == null ? null : !a;
    }

    /** A rule: one to three tests ANDed, sometimes one ORed or NOTed. */
    private static Atom rule(Random r, List<Atom> pool) {
        Atom a = pool.get(r.nextInt(pool.size()));
        for (int i = r.nextInt(3); i > 0; i--) {
            Atom b = pool.get(r.nextInt(pool.size()));
            Atom x = a;
            a = switch (r.nextInt(4)) {
                case 0 -> new Atom("(" + x.sql + ") OR " + b.sql, row -> or(x.eval.apply(row), b.eval.apply(row)));
                case 1 -> new Atom("(" + x.sql + ") AND NOT (" + b.sql + ")",
                        row -> and(x.eval.apply(row), not(b.eval.apply(row))));
                default -> new Atom("(" + x.sql + ") AND " + b.sql, row -> and(x.eval.apply(row), b.eval.apply(row)));
            };
        }
        return a;
    }

    private static String json(Object v) {
        if (v instanceof String) {
            return "\"" + ((String) v).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return String.valueOf(v);
    }

    /** A payload of the row; {@code junk} is the JSON of the unread columns {@code pad} and {@code extra}. */
    private static String payload(Object[] row, String junk) {
        return "{\"id\":" + row[0] + ",\"url\":" + json(row[1]) + ",\"ua\":" + json(row[2]) + ",\"host\":"
                + json(row[3]) + junk + ",\"n\":" + json(row[4]) + "}";
    }

    private static String table(String id) {
        return "CREATE TABLE logs (id INT, url VARCHAR, ua VARCHAR, `host` VARCHAR, n INT, pad INT, "
                + "extra ROW<a INT, b VARCHAR>) WITH (type = 'values', id = '" + id + "');\n";
    }

    @Test
    void randomRuleSetsGiveTheRowsOfAPlainEvaluation() throws Exception {
        for (int seed = 0; seed < 2; seed++) {
            Random r = new Random(1300 + seed);
            List<Object[]> rows = new ArrayList<>();
            List<List<String>> shards = List.of(new ArrayList<>(), new ArrayList<>());
            List<List<String>> clean = List.of(new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < 1200; i++) {
                Object[] row = randomRow(r, i);
                rows.add(row);
                // unread columns of the wrong type, or huge: only a source that decodes them would fail or slow down
                String junk = switch (r.nextInt(4)) {
                    case 0 -> ",\"pad\":\"not a number\",\"extra\":{\"a\":\"b\",\"b\":[1,{\"c\":null}]}";
                    case 1 -> ",\"pad\":\"" + "z".repeat(20_000) + "\"";
                    case 2 -> ",\"extra\":[[[\"deep\"]]],\"pad\":1e400";
                    default -> ",\"pad\":7";
                };
                shards.get(i % 2).add(payload(row, junk));
                clean.get(i % 2).add(payload(row, ",\"pad\":7"));
            }
            String id = "ruleset-" + UUID.randomUUID();
            ValuesSourceFactory.register(id, shards.get(0), shards.get(1));
            ValuesSourceFactory.register(id + "-clean", clean.get(0), clean.get(1));
            List<Atom> pool = atoms(r);
            List<Atom> rules = new ArrayList<>();
            StringBuilder script = new StringBuilder();
            String[] sinks = new String[30];
            for (int i = 0; i < sinks.length; i++) {
                Atom rule = rule(r, pool);
                rules.add(rule);
                sinks[i] = "r" + i;
                script.append(sink(sinks[i], "id INT, `host` VARCHAR")).append("INSERT INTO ").append(sinks[i])
                        .append(" SELECT id, `host` FROM logs WHERE ").append(rule.sql).append(";\n");
            }
            Map<String, List<Row>> pruned = run(table(id) + script, sinks);
            Map<String, List<Row>> plain = run("SET 'table.optimizer.multi-pattern.enabled' = 'false';\n"
                    + "SET 'table.optimizer.projection-pushdown.enabled' = 'false';\n"
                    + "SET 'table.optimizer.rule-set.enabled' = 'false';\n"
                    + "SET 'table.optimizer.shared-predicates.enabled' = 'false';\n" + table(id + "-clean") + script,
                    sinks);
            int nonEmpty = 0;
            for (int i = 0; i < sinks.length; i++) {
                List<String> expected = new ArrayList<>();
                for (Object[] row : rows) {
                    if (Boolean.TRUE.equals(rules.get(i).eval.apply(row))) {
                        expected.add("[" + row[0] + ", " + row[3] + "]");
                    }
                }
                expected.sort(null);
                nonEmpty += expected.isEmpty() ? 0 : 1;
                String what = "seed " + seed + " rule " + rules.get(i).sql;
                assertEquals(expected, rows(pruned.get(sinks[i])), what + ", decoding the columns read");
                assertEquals(expected, rows(plain.get(sinks[i])), what + ", decoding all columns, tests one by one");
            }
            assertTrue(nonEmpty > sinks.length / 3, "most rules match some rows");
        }
    }

    /** Tests a rule set's index selects rules by (equality, IN, IS NULL, small ranges), and some it cannot use. */
    private static List<Atom> indexedAtoms(Random r) {
        List<Atom> pool = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            int col = 1 + r.nextInt(2);
            String name = col == 1 ? "url" : "ua";
            String w = WORDS[r.nextInt(WORDS.length)];
            String w2 = WORDS[r.nextInt(WORDS.length)];
            int k = r.nextInt(30);
            int k2 = k + r.nextInt(40);
            switch (r.nextInt(9)) {
                case 0 -> pool.add(new Atom(name + " = '" + w + "'", row -> str(row[col], s -> s.equals(w))));
                case 1 -> pool.add(new Atom(name + " IN ('" + w + "', '" + w2 + "', '')",
                        row -> str(row[col], s -> s.equals(w) || s.equals(w2) || s.isEmpty())));
                case 2 -> pool.add(new Atom(name + " IS NULL", row -> row[col] == null));
                case 3 -> pool.add(new Atom("`host` IN ('web-1', 'db-1', '')",
                        row -> str(row[3], s -> s.equals("web-1") || s.equals("db-1") || s.isEmpty())));
                case 4 -> pool.add(new Atom("n NOT IN (1, 2, " + k + ")",
                        row -> num(row[4], n -> n != 1 && n != 2 && n != k)));
                case 5 -> pool.add(new Atom("CAST(n AS BIGINT) = " + k, row -> num(row[4], n -> n == k)));
                case 6 -> pool.add(new Atom("n > " + k, row -> num(row[4], n -> n > k)));
                case 7 -> pool.add(new Atom("(n BETWEEN " + k + " AND " + k2 + " OR n IS NULL)",
                        row -> or(num(row[4], n -> n >= k && n <= k2), row[4] == null)));
                default -> pool.add(new Atom("(n < " + k + " AND n > 2)", row -> num(row[4], n -> n < k && n > 2)));
            }
        }
        return pool;
    }

    @Test
    void aRuleSetGivesTheRowsOfEachRuleOnItsOwn() throws Exception {
        for (int seed = 0; seed < 2; seed++) {
            Random r = new Random(4100 + seed);
            List<Object[]> rows = new ArrayList<>();
            List<List<String>> shards = List.of(new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < 1500; i++) {
                Object[] row = randomRow(r, i);
                rows.add(row);
                shards.get(i % 2).add(payload(row, ",\"pad\":7"));
            }
            String id = "rule-index-" + UUID.randomUUID();
            ValuesSourceFactory.register(id, shards.get(0), shards.get(1));
            List<Atom> pool = atoms(r);
            pool.addAll(indexedAtoms(r));
            List<Atom> rules = new ArrayList<>();
            StringBuilder script = new StringBuilder();
            // more rules than one word of the candidate bit set; two rules share each of the last sinks
            String[] sinks = new String[90];
            for (int i = 0; i < sinks.length; i++) {
                sinks[i] = "r" + i;
                script.append(sink(sinks[i], "id INT, `host` VARCHAR"));
            }
            for (int i = 0; i < sinks.length + 10; i++) {
                Atom rule = rule(r, pool);
                rules.add(rule);
                script.append("INSERT INTO ").append(sinks[i % sinks.length]).append(" SELECT id, `host` FROM logs WHERE ")
                        .append(rule.sql).append(";\n");
            }
            String source = table(id) + script;
            assertTrue(new ScriptPlanner(PlannerContext.defaults()).plan("t", source.replace("${RUN}", "plan-only"))
                    .graph().explain().contains("RuleSet"), "the rules run as one rule set");
            Map<String, List<Row>> fused = run(source, sinks);
            Map<String, List<Row>> single = run("SET 'table.optimizer.rule-set.enabled' = 'false';\n" + source, sinks);
            for (int i = 0; i < sinks.length; i++) {
                List<String> expected = new ArrayList<>();
                for (int k = i; k < rules.size(); k += sinks.length) {
                    for (Object[] row : rows) {
                        if (Boolean.TRUE.equals(rules.get(k).eval.apply(row))) {
                            expected.add("[" + row[0] + ", " + row[3] + "]");
                        }
                    }
                }
                expected.sort(null);
                String what = "seed " + seed + " sink " + sinks[i] + " rule " + rules.get(i).sql;
                assertEquals(expected, rows(fused.get(sinks[i])), what + ", as a rule set");
                assertEquals(expected, rows(single.get(sinks[i])), what + ", one calc per rule");
            }
        }
    }

    @Test
    void explainShowsTheRuleSetAndItsIndex() {
        String script = (table("none") + sink("a", "id INT") + sink("b", "id INT") + sink("c", "id INT")
                + "INSERT INTO a SELECT id FROM logs WHERE n = 1 AND url LIKE '%passwd%';\n"
                + "INSERT INTO b SELECT id FROM logs WHERE n IN (2, 3) OR `host` IS NULL;\n"
                + "INSERT INTO c SELECT id FROM logs WHERE CHAR_LENGTH(url) > 3;\n").replace("${RUN}", "plan-only");
        String on = new ScriptPlanner(PlannerContext.defaults()).plan("t", script).graph().explain();
        assertTrue(on.contains("RuleSet 3 rules; index=[url(1 by pattern literal), host(1 by value), n(2 by value)]"
                + " unindexed=1"), on);
        assertTrue(on.contains("Rule "), on);
        assertTrue(on.contains("decodes=id,url,host,n"), on);
        String off = new ScriptPlanner(PlannerContext.defaults())
                .plan("t", "SET 'table.optimizer.rule-set.enabled' = 'false';\n" + script).graph().explain();
        assertFalse(off.contains("RuleSet"), off);
    }

    @Test
    void anUnreadMalformedFieldIsSkippedAReadOneIsStillAnError() throws Exception {
        String id = "malformed-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of(
                "{\"id\":1,\"url\":\"/a\",\"n\":\"not a number\",\"pad\":{\"x\":[1,2]}}",
                "{\"id\":2,\"url\":\"/b\",\"n\":5,\"pad\":\"" + "y".repeat(100_000) + "\"}"));
        String script = table(id) + sink("hits", "id INT")
                + "INSERT INTO hits SELECT id FROM logs WHERE url LIKE '/%';\n";
        assertEquals(List.of("[1]", "[2]"), rows(run(script, "hits").get("hits")));

        AssertionError off = assertThrows(AssertionError.class,
                () -> run("SET 'table.optimizer.projection-pushdown.enabled' = 'false';\n" + script, "hits"));
        assertTrue(off.getMessage().contains("not a number"), off.getMessage());

        String reads = table(id) + sink("hits", "id INT")
                + "INSERT INTO hits SELECT id FROM logs WHERE n > 1;\n";
        AssertionError read = assertThrows(AssertionError.class, () -> run(reads, "hits"));
        assertTrue(read.getMessage().contains("not a number"), read.getMessage());
    }

    @Test
    void anUnreadMalformedCsvFieldIsNotConverted() throws Exception {
        String id = "csv-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of("1,/a,not a number", "2,/b,5", "3,x,6"));
        String table = "CREATE TABLE logs (id INT, url VARCHAR, n INT) WITH (type = 'values', id = '" + id
                + "', 'format' = 'csv');\n";
        String script = table + sink("hits", "id INT") + "INSERT INTO hits SELECT id FROM logs WHERE url LIKE '/%';\n";
        assertEquals(List.of("[1]", "[2]"), rows(run(script, "hits").get("hits")));
        AssertionError read = assertThrows(AssertionError.class, () -> run(table + sink("hits", "id INT")
                + "INSERT INTO hits SELECT id FROM logs WHERE n > 1;\n", "hits"));
        assertTrue(read.getMessage().contains("not a number"), read.getMessage());
    }

    @Test
    void explainShowsTheSharedPredicates() {
        String script = (table("none") + sink("a", "id INT") + sink("b", "id INT") + sink("c", "id INT")
                + "INSERT INTO a SELECT id FROM logs WHERE n = 1 AND UPPER(url) LIKE '%X%';\n"
                + "INSERT INTO b SELECT id FROM logs WHERE UPPER(url) LIKE '%X%' AND n = 2;\n"
                + "INSERT INTO c SELECT id FROM logs WHERE n = 1 AND url LIKE '%y%';\n").replace("${RUN}", "plan-only");
        PlannedJob on = new ScriptPlanner(PlannerContext.defaults()).plan("t", script);
        assertEquals(1, on.sharedPredicates().size(), on.sharedPredicates().toString());
        assertTrue(on.sharedPredicates().get(0).startsWith("logs: LIKE(UPPER(url)"), on.sharedPredicates().toString());
        assertTrue(on.sharedPredicates().get(0).endsWith("(in 2 calcs)"), on.sharedPredicates().toString());
        assertTrue(on.generatedSource().contains("SharedConjuncts.named("), on.generatedSource());
        PlannedJob off = new ScriptPlanner(PlannerContext.defaults())
                .plan("t", "SET 'table.optimizer.shared-predicates.enabled' = 'false';\n" + script);
        assertTrue(off.sharedPredicates().isEmpty(), off.sharedPredicates().toString());
        assertFalse(off.generatedSource().contains("SharedConjuncts"), off.generatedSource());
    }

    @Test
    void explainNamesTheDecodedColumns() {
        String script = (table("none") + sink("a", "id INT") + sink("b", "url VARCHAR")
                + "INSERT INTO a SELECT id FROM logs WHERE n = 1;\n"
                + "INSERT INTO b SELECT url FROM logs WHERE url LIKE '%x%';\n").replace("${RUN}", "plan-only");
        String on = new ScriptPlanner(PlannerContext.defaults()).plan("t", script).graph().explain();
        assertTrue(on.contains("decodes=id,url,n"), on);
        String off = new ScriptPlanner(PlannerContext.defaults())
                .plan("t", "SET 'table.optimizer.projection-pushdown.enabled' = 'false';\n" + script).graph().explain();
        assertFalse(off.contains("decodes="), off);
        String all = (table("none") + sink("c", "id INT, url VARCHAR, ua VARCHAR, `host` VARCHAR, n INT, pad INT, "
                + "extra ROW<a INT, b VARCHAR>") + "INSERT INTO c SELECT * FROM logs;\n")
                .replace("${RUN}", "plan-only");
        assertFalse(new ScriptPlanner(PlannerContext.defaults()).plan("t", all).graph().explain().contains("decodes="));
    }
}
