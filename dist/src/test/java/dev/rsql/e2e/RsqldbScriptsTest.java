package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scripts in the style of rsqldb's new-era examples ({@code docs/sql_example.md}: tables with only topic, groupName,
 * namesrvAddr and data_format, a bare SELECT, {@code position} as a column, windows) against the in-process RocketMQ,
 * with only the name server adapted; the rows are those Flink's semantics give, computed here.
 */
class RsqldbScriptsTest {

    private static final String[] CITIES = {"shenzhen", "shanghai", "beijing"};

    @BeforeAll
    static void startBroker(@TempDir Path dir) throws Exception {
        RocketMqSqlJobTest.startBroker(dir);
    }

    @AfterAll
    static void stopBroker() {
        RocketMqSqlJobTest.stopBroker();
    }

    /**
     * The "Group By" example: a bare SELECT prints its changelog; applied, it holds each position's AVG (Flink's AVG
     * of an INT is an INT). The source topic is created only after the job started: the source waits for it.
     */
    @Test
    void bareSelectGroupByPositionPrintsTheAverages() throws Exception {
        String topic = "groupBy_source_" + RocketMqSqlJobTest.SEQ.incrementAndGet();
        String script = "CREATE TABLE `sourceTable`\n"
                + "(\n"
                + "    position        VARCHAR,\n"
                + "    num             INT\n"
                + ") WITH (\n"
                + "      topic = '" + topic + "',\n"
                + "      groupName = 'rsqldb_group_" + topic + "',\n"
                + "      namesrvAddr = '" + RocketMqSqlJobTest.broker.nameServerAddress() + "',\n"
                + "      data_format='json'\n"
                + "      );\n"
                + "\n"
                + "SELECT `position`, avg(num) AS nums FROM sourceTable GROUP BY position;\n";
        // The print sink of a bare SELECT names it by its position.
        int line = script.substring(0, script.indexOf("SELECT `")).split("\n", -1).length;
        Random random = new Random(14);
        List<String> bodies = new ArrayList<>();
        Map<String, long[]> sumCount = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            String city = CITIES[random.nextInt(CITIES.length)];
            int num = random.nextInt(20);
            bodies.add("{\"position\":\"" + city + "\",\"num\":" + num + "}");
            long[] sc = sumCount.computeIfAbsent(city, k -> new long[2]);
            sc[0] += num;
            sc[1]++;
        }
        Map<String, String> expected = new TreeMap<>();
        sumCount.forEach((city, sc) -> expected.put(city, String.valueOf(sc[0] / sc[1])));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        JobInstance job = null;
        try {
            job = RocketMqSqlJobTest.start("rsqldb_groupby", script);
            RocketMqSqlJobTest.broker.createTopic(topic, 2);
            RocketMqSqlJobTest.produce(topic, bodies, null, null);
            Await.until(() -> "the averages " + expected + ", printed: " + out, Duration.ofSeconds(45),
                    () -> expected.equals(applied(out.toString(StandardCharsets.UTF_8), "SELECT@" + line + ":1> ")));
        } finally {
            if (job != null) {
                job.stop();
            }
            System.setOut(stdout);
        }
    }

    /** Applies printed {@code +I[k, v]} / {@code -U} / {@code +U} / {@code -D} lines to a map of k to v. */
    private static Map<String, String> applied(String printed, String prefix) {
        Map<String, String> table = new TreeMap<>();
        Pattern row = Pattern.compile(Pattern.quote(prefix) + "([+-][IUD])\\[(.*), (.*)]");
        for (String line : printed.split("\\R")) {
            Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            if (m.group(1).startsWith("+")) {
                table.put(m.group(2), m.group(3));
            } else {
                table.remove(m.group(2));
            }
        }
        return table;
    }

    /**
     * The "event_time window" example, into a sink table with only topic and data_format (the name server from the
     * engine's setting): rsqldb held event time 10 s late, written here as the WATERMARK Flink needs.
     */
    @Test
    void eventTimeTumbleWindowPerPosition() throws Exception {
        String source = RocketMqSqlJobTest.topic("window_source", 1);
        String sink = RocketMqSqlJobTest.topic("window_sink", 1);
        String script = "CREATE TABLE `sourceTable`\n"
                + "(\n"
                + "    position        VARCHAR,\n"
                + "    num             INT,\n"
                + "    ts              timestamp,\n"
                + "    WATERMARK FOR ts AS ts - INTERVAL '10' SECOND\n"
                + ") WITH (\n"
                + "      topic = '" + source + "',\n"
                + "      data_format='json'\n"
                + "      );\n"
                + "CREATE TABLE `sinkTable`\n"
                + "(\n"
                + "    window_start TIMESTAMP, window_end TIMESTAMP, position VARCHAR, sumNum INT\n"
                + ") WITH (\n"
                + "      topic = '" + sink + "',\n"
                + "      data_format='json'\n"
                + "      );\n"
                + "insert into sinkTable\n"
                + "select\n"
                + "TUMBLE_START(ts, INTERVAL '5' SECOND)       AS window_start,\n"
                + "TUMBLE_END(ts, INTERVAL '5' SECOND)         AS window_end,\n"
                + "position                                    AS position,\n"
                + "sum(num)                                    AS sumNum\n"
                + "from  sourceTable\n"
                + "where num > 5\n"
                + "group by TUMBLE(ts, INTERVAL '5' SECOND), position\n"
                + "having sum(num) < 20;\n";
        long base = 1674874800000L;
        Random random = new Random(5);
        List<String> bodies = new ArrayList<>();
        Map<String, Integer> sums = new TreeMap<>();
        long maxTs = base;
        for (int i = 0; i < 120; i++) {
            // Out of order by up to 8 s, within the watermark's 10 s.
            long ts = Math.max(base, base + i * 500L - random.nextInt(8_000));
            maxTs = Math.max(maxTs, ts);
            String city = CITIES[random.nextInt(CITIES.length)];
            int num = random.nextInt(12);
            bodies.add("{\"position\":\"" + city + "\",\"num\":" + num + ",\"ts\":" + ts + "}");
            if (num > 5) {
                sums.merge((ts - ts % 5_000) + "|" + city, num, Integer::sum);
            }
        }
        // Moves the watermark past every window (filtered out by num > 5 itself).
        bodies.add("{\"position\":\"beijing\",\"num\":0,\"ts\":" + (maxTs + 20_000) + "}");
        DateTimeFormatter sql = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
        List<String> expected = new ArrayList<>();
        sums.forEach((key, sum) -> {
            if (sum < 20) {
                long start = Long.parseLong(key.substring(0, key.indexOf('|')));
                expected.add(sql.format(Instant.ofEpochMilli(start)) + "|" + sql.format(Instant.ofEpochMilli(start
                        + 5_000)) + "|" + key.substring(key.indexOf('|') + 1) + "|" + sum);
            }
        });
        expected.sort(null);

        JobInstance job = RocketMqSqlJobTest.start("rsqldb_window", script);
        try {
            RocketMqSqlJobTest.produce(source, bodies, null, null);
            List<MessageExt> messages = RocketMqSqlJobTest.readUntil(sink, expected.size(), Duration.ofSeconds(45));
            List<String> actual = new ArrayList<>();
            for (MessageExt m : messages) {
                JSONObject o = JSON.parseObject(new String(m.getBody(), StandardCharsets.UTF_8));
                actual.add(o.getString("window_start") + "|" + o.getString("window_end") + "|"
                        + o.getString("position") + "|" + o.getIntValue("sumNum"));
            }
            actual.sort(null);
            assertEquals(expected, actual);
        } finally {
            job.stop();
        }
    }
}
