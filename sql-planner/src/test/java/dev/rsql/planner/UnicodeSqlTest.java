package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import dev.rsql.sql.parser.RsqlParseException;
import dev.rsql.sql.parser.RsqlParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text outside Latin-1 on every path a script's text takes: literals, back-quoted identifiers, comments, LIKE and
 * REGEXP patterns, function arguments, option values, state keys, files, plans and error positions. Character counts
 * and positions are Flink's: code points, so an emoji is one character.
 */
class UnicodeSqlTest {

    @Test
    void aScriptWrittenInChineseRunsAndGivesTheRightRows() throws Exception {
        String id = "logins-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, List.of(
                "{\"用户\":\"张三\",\"城市\":\"北京\",\"金额\":12.5,\"备注\":\"登录失败🚫\"}",
                "{\"用户\":\"李四\",\"城市\":\"上海🚀\",\"金额\":3,\"备注\":\"正常\"}",
                "{\"用户\":\"王五\",\"城市\":\"深圳\",\"金额\":700,\"备注\":\"\\u98ce\\u63a7 \\ud83d\\ude80\"}",
                "{\"用户\":\"赵六\",\"城市\":\"北京\",\"金额\":1,\"备注\":null}"));
        String script = "-- 风控规则：登录事件 🚀\n"
                + "/* 多行注释\n   第二行 */\n"
                + "CREATE TABLE `登录` (`用户` VARCHAR, `城市` VARCHAR, `金额` DOUBLE, `备注` VARCHAR)"
                + " WITH (type = 'values', id = '" + id + "');\n"
                + sink("`结果`", "`用户` VARCHAR, `标签` VARCHAR, `级别` VARCHAR, `长度` INT, `片段` VARCHAR")
                + "INSERT INTO `结果`\n"
                + "SELECT `用户`, CONCAT('风控-', `城市`) AS `标签`,\n"
                + "  CASE WHEN `金额` >= 500 THEN '高' WHEN `备注` LIKE '%失败%' THEN '中' ELSE '低' END AS `级别`,\n"
                + "  CHAR_LENGTH(`城市`) AS `长度`, SUBSTRING(`城市`, 2) AS `片段`  -- 注释 🚫\n"
                + "FROM `登录` WHERE `城市` <> '广州' AND (`城市` IN ('北京', '深圳') OR REGEXP(`城市`, '^上.🚀$'))"
                + " AND `用户` NOT LIKE '赵%'";
        Map<String, List<Row>> out = run(script, "`结果`");
        assertEquals(List.of(
                "[张三, 风控-北京, 中, 2, 京]",
                "[李四, 风控-上海🚀, 低, 3, 海🚀]",
                "[王五, 风控-深圳, 高, 2, 圳]"), rows(out.get("`结果`")));
    }

    /** Each expression over {@code s} = '深圳🚀站，风控' and its value as Flink computes it. */
    @Test
    void stringFunctionsCountCharactersNotUtf16Units() throws Exception {
        String[] cases = {
                "CHAR_LENGTH(s)", "7",
                "CHARACTER_LENGTH(s)", "7",
                "SUBSTRING(s, 3)", "🚀站，风控",
                "SUBSTRING(s, 2, 2)", "圳🚀",
                "SUBSTRING(s FROM 3 FOR 1)", "🚀",
                "SUBSTR(s, -3, 2)", "，风",
                "LEFT(s, 3)", "深圳🚀",
                "RIGHT(s, 5)", "🚀站，风控",
                "LPAD(s, 9, '🙂')", "🙂🙂深圳🚀站，风控",
                "RPAD('北', 4, '京🚀')", "北京🚀京",
                "LPAD(s, 3, '-')", "深圳🚀",
                "REVERSE(s)", "控风，站🚀圳深",
                "POSITION('站' IN s)", "4",
                "LOCATE('风', s)", "6",
                "LOCATE('🚀', s, 4)", "0",
                "INSTR(s, '，')", "5",
                "INSTR(s, '站', -1)", "4",
                "OVERLAY(s PLACING '上海' FROM 1 FOR 3)", "上海站，风控",
                "OVERLAY(s PLACING 'XY' FROM 3)", "深圳XY，风控",
                "UPPER(CONCAT(s, 'ok'))", "深圳🚀站，风控OK",
                "SPLIT_INDEX(s, '，', 1)", "风控",
                "REPLACE(s, '🚀', '火箭')", "深圳火箭站，风控",
                "REGEXP_EXTRACT(s, '(.)站', 1)", "🚀",
                "REGEXP_REPLACE(s, '[风控]', '*')", "深圳🚀站，**",
                "s LIKE '深圳_站%'", "TRUE",
                "s LIKE '%🚀_，%'", "TRUE",
                "s LIKE '__🚀_，%' ESCAPE '🙂'", "TRUE",
                "s LIKE '%🙂%%' ESCAPE '🙂'", "FALSE",
                "REGEXP(s, '^..🚀')", "TRUE",
                "JSON_VALUE('{\"城市\":\"深圳🚀\"}', '$.城市')", "深圳🚀",
                "KEYVALUE('名=张三;城=北京', ';', '=', '城')", "北京",
                "MD5(s)", md5("深圳🚀站，风控"),
                "INITCAP('ÉCOLE 风控')", "École 风控",
        };
        String id = "text_" + UUID.randomUUID().toString().replace('-', '_');
        ValuesSourceFactory.register(id, List.of("{\"s\":\"深圳🚀站，风控\"}"));
        StringBuilder select = new StringBuilder();
        StringBuilder columns = new StringBuilder();
        for (int i = 0; i < cases.length; i += 2) {
            select.append(i == 0 ? "" : ", ").append("CAST(").append(cases[i]).append(" AS VARCHAR)");
            columns.append(i == 0 ? "" : ", ").append("c").append(i / 2).append(" VARCHAR");
        }
        Map<String, List<Row>> out = run(source(id, "s VARCHAR") + sink("o", columns.toString())
                + "INSERT INTO o SELECT " + select + " FROM " + id, "o");
        Row row = out.get("o").get(0);
        for (int i = 0; i < cases.length; i += 2) {
            assertEquals(cases[i + 1], String.valueOf(row.get(i / 2)), cases[i]);
        }
    }

    private static String md5(String s) throws Exception {
        byte[] d = java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : d) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    /** Files in and out, keyed state and option values: the text arrives as it was written, in UTF-8. */
    @Test
    void filesStateAndOptionValuesKeepTheText(@TempDir Path dir) throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(in.resolve("a.json"), "{\"用户\":\"张三\",\"城市\":\"北京\",\"备注\":\"登录失败🚫\"}\n"
                + "{\"用户\":\"李四\",\"城市\":\"上海🚀\",\"备注\":\"正常\"}\n"
                + "{\"用户\":\"张三\",\"城市\":\"北京\",\"备注\":\"风控 🚀\"}\n", StandardCharsets.UTF_8);
        String script = "CREATE TABLE s (`用户` VARCHAR, `城市` VARCHAR, `备注` VARCHAR) WITH ('connector' = 'filesystem',"
                + " 'path' = '" + in + "', 'format' = 'json');\n"
                + "CREATE TABLE g (`名字` VARCHAR, n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '40',"
                + " 'fields.名字.values' = '甲,乙🚀,丙');\n"
                + "CREATE TABLE counts (`用户` VARCHAR, `次数` BIGINT, `最大` VARCHAR, PRIMARY KEY (`用户`) NOT ENFORCED)"
                + " WITH ('connector' = 'filesystem', 'path' = '" + dir.resolve("counts") + "', 'format' = 'json');\n"
                + "CREATE TABLE picked (`用户` VARCHAR, `城市` VARCHAR) WITH ('connector' = 'filesystem', 'path' = '"
                + dir.resolve("picked") + "', 'format' = 'csv');\n"
                + sink("names", "`名字` VARCHAR, `次数` BIGINT")
                + "INSERT INTO counts SELECT `用户`, COUNT(*), MAX(`备注`) FROM s GROUP BY `用户`;\n"
                + "INSERT INTO picked SELECT `用户`, `城市` FROM s WHERE `备注` LIKE '%🚀' OR `城市` LIKE '上海%';\n"
                + "INSERT INTO names SELECT `名字`, COUNT(*) FROM g GROUP BY `名字`;\n";
        Map<String, List<Row>> out = run(script, "names");
        List<String> names = out.get("names").stream().map(r -> (String) r.get(0)).distinct().sorted()
                .collect(Collectors.toList());
        assertEquals(List.of("丙", "乙🚀", "甲"), names);
        assertEquals(List.of("张三,北京", "李四,上海🚀"), lines(dir.resolve("picked")));
        List<String> counts = lines(dir.resolve("counts"));
        assertTrue(counts.contains("{\"用户\":\"张三\",\"次数\":2,\"最大\":\"风控 🚀\",\"op\":\"+U\"}"), counts.toString());
        assertTrue(counts.contains("{\"用户\":\"李四\",\"次数\":1,\"最大\":\"正常\"}"), counts.toString());
    }

    private static List<String> lines(Path dir) throws Exception {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                    .collect(Collectors.toList())) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        }
        lines.sort(null);
        return lines;
    }

    /** Rules with Chinese literals give the same rows with the shared prefilter and without it. */
    @Test
    void rulesWithChineseLiteralsMatchWithAndWithoutTheSharedPrefilter() throws Exception {
        String[] words = {"登录", "失败", "风控", "北京", "上海", "🚀", "🚫", "，", "管理员", "密码", "a", "/"};
        Random r = new Random(77);
        List<String> texts = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            StringBuilder b = new StringBuilder();
            for (int k = r.nextInt(5); k > 0; k--) {
                b.append(words[r.nextInt(words.length)]);
            }
            texts.add(b.toString());
            payloads.add("{\"id\":" + i + ",\"msg\":\"" + b + "\"}");
        }
        String id = "msgs-" + UUID.randomUUID();
        ValuesSourceFactory.register(id, payloads);
        String[][] rules = {
                {"`规则一`", "msg LIKE '%登录失败%'"},
                {"`规则二`", "msg LIKE '北京%' AND msg NOT LIKE '%🚫%'"},
                {"`规则三`", "msg LIKE '%🚀' OR msg LIKE '%管理员_密码%'"},
                {"`规则四`", "REGEXP(msg, '风控.*，') AND msg LIKE '%上海%'"},
                {"`规则五`", "msg LIKE '_🚀%'"},
        };
        java.util.function.Predicate<String>[] tests = List.<java.util.function.Predicate<String>>of(
                m -> m.contains("登录失败"),
                m -> m.startsWith("北京") && !m.contains("🚫"),
                m -> m.endsWith("🚀") || m.matches("(?s).*管理员.密码.*"),
                m -> m.matches("(?s).*风控.*，.*") && m.contains("上海"),
                m -> m.codePointCount(0, m.length()) >= 2 && m.startsWith("🚀", m.offsetByCodePoints(0, 1)))
                .toArray(new java.util.function.Predicate[0]);
        StringBuilder script = new StringBuilder(
                "CREATE TABLE `日志` (id INT, msg VARCHAR) WITH (type = 'values', id = '" + id + "');\n");
        String[] sinks = new String[rules.length];
        for (int i = 0; i < rules.length; i++) {
            sinks[i] = rules[i][0];
            script.append(sink(rules[i][0], "id INT")).append("INSERT INTO ").append(rules[i][0])
                    .append(" SELECT id FROM `日志` WHERE ").append(rules[i][1]).append(";\n");
        }
        Map<String, List<Row>> on = run(script.toString(), sinks);
        Map<String, List<Row>> off = run("SET 'table.optimizer.multi-pattern.enabled' = 'false';\n" + script, sinks);
        for (int i = 0; i < rules.length; i++) {
            List<String> expected = new ArrayList<>();
            for (int k = 0; k < texts.size(); k++) {
                if (tests[i].test(texts.get(k))) {
                    expected.add("[" + k + "]");
                }
            }
            expected.sort(null);
            assertFalse(expected.isEmpty(), rules[i][0] + " matches some rows");
            assertEquals(expected, rows(on.get(rules[i][0])), rules[i][0] + " with the shared prefilter");
            assertEquals(expected, rows(off.get(rules[i][0])), rules[i][0] + " without it");
        }
    }

    @Test
    void explainShowsTheTextAsWritten() {
        PlannedJob job = new ScriptPlanner(PlannerContext.defaults()).plan("t",
                "CREATE TABLE `登录` (`城市` VARCHAR) WITH (type = 'values', id = 'none');\n"
                        + "CREATE TABLE o (`城市` VARCHAR, tag VARCHAR) WITH (type = 'collect', id = 'none');\n"
                        + "INSERT INTO o SELECT `城市`, '风控🚀' FROM `登录` WHERE `城市` LIKE '北%'");
        String plan = job.explain();
        assertTrue(plan.contains("LIKE(城市, '北%')"), plan);
        assertTrue(plan.contains("'风控🚀' AS tag"), plan);
        assertFalse(plan.contains("\\u"), plan);
        assertFalse(plan.contains("UTF-16"), plan);
    }

    /** Columns count characters as an editor shows them: an emoji or a Chinese character is one column. */
    @Test
    void errorPositionsCountCharacters() {
        String tables = "CREATE TABLE t (`城市` VARCHAR) WITH (type = 'values', id = 'none');\n"
                + "CREATE TABLE o (a VARCHAR, b VARCHAR) WITH (type = 'collect', id = 'none');\n";
        PlanningException e = assertThrows(PlanningException.class, () -> new ScriptPlanner(PlannerContext.defaults())
                .plan("t", tables + "INSERT INTO o SELECT '🚀🚀北京', nosuch FROM t"));
        assertTrue(e.getMessage().startsWith("line 3, column 30:"), e.getMessage());
        RsqlParseException p = assertThrows(RsqlParseException.class,
                () -> RsqlParser.parseScript("SELECT '风控🚀', `城市` FORM t"));
        // FORM is taken as an alias, so t is the unexpected word
        assertTrue(p.getMessage().startsWith("line 1, column 25: unexpected 't'"), p.getMessage());
        RsqlParseException q = assertThrows(RsqlParseException.class,
                () -> RsqlParser.parseScript("SELECT `城市🚀 FROM t"));
        assertEquals("line 1, column 19: unexpected end of input in '`城市🚀 FROM t'", q.getMessage());
        RsqlParseException w = assertThrows(RsqlParseException.class,
                () -> RsqlParser.parseScript("SELECT `城市`，b FROM t"));
        assertEquals("line 1, column 12: unexpected character '，' (a full-width character; write ',')",
                w.getMessage());
    }
}
