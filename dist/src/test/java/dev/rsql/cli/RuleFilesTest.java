package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rule files under jobs/ ({@code x.rules.yaml}) are jobs like scripts: listed by {@code jobs}, checked with the line
 * and column of each mistake, explained with the SQL they stand for, and run: the example jobs/shop_events.rules.yaml
 * gives exactly the events its patterns select, transformed.
 */
class RuleFilesTest {

    private static final Path EXAMPLE = Path.of("..", "jobs", "shop_events.rules.yaml").toAbsolutePath().normalize();
    private static final Path EVENTS = Path.of("..", "jobs", "data", "shop_events.jsonl").toAbsolutePath().normalize();

    /** A home whose jobs/ holds the example rule file and its data. */
    private static Path home(Path dir) throws Exception {
        Path jobs = Files.createDirectories(dir.resolve("jobs").resolve("data"));
        Files.copy(EVENTS, jobs.resolve("shop_events.jsonl"));
        Files.copy(EXAMPLE, dir.resolve("jobs").resolve("shop_events.rules.yaml"));
        return dir;
    }

    private static String[] cli(Path home, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        int code;
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            System.setErr(capture);
            List<String> all = new ArrayList<>(List.of("--home", home.toString()));
            all.addAll(List.of(args));
            code = RsqlCli.execute(all.toArray(new String[0]));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new String[]{String.valueOf(code), bytes.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theExampleRunsAndGivesWhatItsPatternsSelect(@TempDir Path dir) throws Exception {
        Path home = home(dir);
        assertTrue(cli(home, "jobs")[1].lines().anyMatch("shop_events"::equals), "listed as a job");
        String[] explained = cli(home, "explain", "shop_events");
        assertEquals("0", explained[0], explained[1]);
        assertTrue(explained[1].startsWith("Equivalent SQL\n") && explained[1].contains("WHERE EVENT_MATCHES(`event`, ")
                && explained[1].contains("RuleSet 3 rules"), explained[1]);
        String[] run = cli(home, "run", "shop_events");
        assertEquals("0", run[0], run[1]);

        List<String> alerts = new ArrayList<>();
        List<String> vip = new ArrayList<>();
        for (String line : Files.readAllLines(EVENTS, StandardCharsets.UTF_8)) {
            JSONObject e = JSON.parseObject(line);
            JSONObject data = e.getJSONObject("data");
            String type = e.getString("type");
            if (type.equals("order.paid") && data.getLongValue("amount") >= 10000) {
                alerts.add("large payment: order " + data.getLong("orderId") + " paid " + data.getLong("amount")
                        + " in " + data.getString("region"));
            }
            if (type.equals("order.refunded") && e.getString("source").endsWith("/app")) {
                alerts.add("refund: " + e.getString("id"));
            }
            if (type.startsWith("order.") && data.getJSONObject("user").getBooleanValue("vip")) {
                vip.add(data.toJSONString());
            }
        }
        assertTrue(alerts.size() > 10 && vip.size() > 10, alerts.size() + " " + vip.size());
        assertEquals(alerts.stream().sorted().toList(), Files.readAllLines(home.resolve("data")
                .resolve("shop_alerts.txt"), StandardCharsets.UTF_8).stream().sorted().toList());
        assertEquals(vip.stream().map(s -> JSON.parseObject(s).toJSONString()).sorted().toList(),
                Files.readAllLines(home.resolve("data").resolve("shop_vip.jsonl"), StandardCharsets.UTF_8).stream()
                        .map(s -> JSON.parseObject(s).toJSONString()).sorted().toList());
    }

    @Test
    void checkNamesTheLineAndColumnOfEachMistake(@TempDir Path dir) throws Exception {
        Path home = home(dir);
        Path jobs = home.resolve("jobs");
        String good = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        write(jobs, "operator", good.replace("{numeric: ['>=', 10000]}", "{numerc: ['>=', 10000]}"));
        write(jobs, "target", good.replace("targets: [vip]", "targets: [vips]"));
        write(jobs, "key", good.replace("    transform: {path: $.data}", "    transfrom: {path: $.data}"));
        write(jobs, "string", good.replace("pattern: {type: [order.refunded], source: [{suffix: /app}]}",
                "pattern: '{\"type\": [\"order.refunded\"], \"source\": [{\"suffix\": 5}]}'"));
        write(jobs, "yaml", "bus: [\n");
        CheckCommandTest.Result r = CheckCommandTest.check(home);
        assertEquals(1, r.code(), String.join("\n", r.lines()));
        assertLine(r, "operator.rules.yaml: line 12, column 14: rule 'large payment': malformed pattern: unknown "
                + "operator \"numerc\" (did you mean \"numeric\"?)");
        assertLine(r, "target.rules.yaml: line 24, column 15: rule 'vip orders': no target 'vips'; did you mean 'vip'?");
        assertLine(r, "key.rules.yaml: line 23, column 5: a rule: unknown key 'transfrom'; did you mean 'transform'?");
        assertLine(r, "string.rules.yaml: line 18, column 66: rule 'refund from the app': malformed pattern: suffix "
                + "takes a string");
        assertLine(r, "yaml.rules.yaml: line 2, column 1: not a rule file (YAML or JSON)");
        assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("OK ") && l.endsWith("shop_events.rules.yaml")),
                r.lines().toString());
    }

    private static void write(Path jobs, String name, String text) throws Exception {
        Files.writeString(jobs.resolve(name + ".rules.yaml"), text, StandardCharsets.UTF_8);
    }

    private static void assertLine(CheckCommandTest.Result r, String fragment) {
        assertTrue(r.lines().stream().anyMatch(l -> l.startsWith("ERROR ") && l.contains(fragment)),
                "no line with '" + fragment + "' in:\n" + String.join("\n", r.lines()));
    }
}
