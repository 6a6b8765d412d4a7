package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.MariaDbServer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * rsqldb's example {@code rsqldb-disk/client/join/dimJoin/dimJoinWithMysql.sql} (alibaba/rsqldb, branch
 * {@code oldVersion}, commit ee69556), with its MySQL DDL and rows {@code purchaser_dim.sql} run as they are in a
 * MariaDB server, and only the connection adapted: the name server address, and the JDBC URL, user and password.
 * Tickets sent to the topic are joined with the purchasers (a Blink {@code FOR SYSTEM_TIME AS OF PROCTIME()} join
 * with a {@code type = 'db'} table) and printed, by {@code rsql run} in a child JVM.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RsqldbDimJoinWithMysqlTest {

    private static final Pattern ROW = Pattern.compile("^\\+I\\[(.*)]$");

    @TempDir
    Path dir;

    @Test
    void dimJoinWithMysqlRunsAsWritten() throws Exception {
        try (MariaDbServer db = MariaDbServer.start(dir.resolve("mariadb"));
             LocalRocketMq broker = LocalRocketMq.start(dir.resolve("broker"))) {
            db.execute("CREATE DATABASE rocketmq_streams");
            List<String> ddl = new ArrayList<>(List.of("USE rocketmq_streams"));
            for (String statement : resource("purchaser_dim.sql").split(";")) {
                String s = statement.replaceAll("(?m)^--.*$", "").trim();
                if (!s.isEmpty()) {
                    ddl.add(s);
                }
            }
            db.execute(ddl.toArray(String[]::new));
            Map<Integer, String> purchasers = new TreeMap<>();
            for (String row : db.query("SELECT purchaser_id, name, gender FROM rocketmq_streams.purchaser_dim")) {
                String[] f = row.split("\\|");
                purchasers.put(Integer.parseInt(f[0]), f[1] + ", " + f[2]);
            }
            assertEquals(10, purchasers.size());

            broker.createTopic("movie_ticket", 4);
            String script = resource("dimJoinWithMysql.sql")
                    .replace("namesrvAddr = '127.0.0.1:9876'", "namesrvAddr = '" + broker.nameServerAddress() + "'")
                    .replace("url='jdbc:mysql://localhost:3306/rocketmq_streams'",
                            "url='jdbc:mysql://127.0.0.1:" + db.port() + "/rocketmq_streams'")
                    .replace("userName=''", "userName='" + db.user() + "'")
                    .replace("password=''", "password='" + db.password() + "'");
            Path file = dir.resolve("dimJoinWithMysql.sql");
            Files.writeString(file, script);

            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("checkpoint.interval", "500ms");
            settings.put("worker.threads", "2");
            try (JobInstances job = new JobInstances(dir, dir.resolve("logs"), file, settings)) {
                JobInstances.Instance run = job.start("local");
                Map<String, Integer> expected = new TreeMap<>();
                DefaultMQProducer producer = new DefaultMQProducer("movie_ticket_producer");
                producer.setNamesrvAddr(broker.nameServerAddress());
                producer.setInstanceName("dim-join-" + UUID.randomUUID());
                producer.start();
                try {
                    Random r = new Random(5);
                    String[] movies = {"Hero", "Red Sorghum", "Farewell My Concubine"};
                    for (int id = 1; id <= 200; id++) {
                        int purchaser = 1 + r.nextInt(12); // 11 and 12 are not in the table: the inner join drops them
                        String movie = movies[r.nextInt(movies.length)];
                        String json = "{\"id\":" + id + ",\"purchaser_id\":" + purchaser + ",\"movie_name\":\""
                                + movie + "\",\"position\":\"r" + r.nextInt(20) + "\",\"time\":\"2022-06-18 10:00:"
                                + String.format("%02d", id % 60) + "\"}";
                        producer.send(new Message("movie_ticket", json.getBytes(StandardCharsets.UTF_8)));
                        if (purchasers.containsKey(purchaser)) {
                            expected.merge(purchaser + ", " + purchasers.get(purchaser) + ", " + movie, 1,
                                    Integer::sum);
                        }
                    }
                } finally {
                    producer.shutdown();
                }
                AtomicReference<Map<String, Integer>> printed = new AtomicReference<>(Map.of());
                try {
                    Await.until(() -> "the joined tickets printed; they are " + printed.get() + ", expected "
                                    + expected,
                            Duration.ofSeconds(60), () -> {
                                job.checkAlive();
                                printed.set(printedRows(run.log));
                                return printed.get().equals(expected);
                            });
                } catch (Throwable t) {
                    job.printLogs(80);
                    throw t;
                }
                assertEquals(0, job.countLogLines(db.password()), "a log shows the password");
                job.stop("local", 60);
            }
        }
    }

    private static Map<String, Integer> printedRows(Path log) {
        Map<String, Integer> rows = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                Matcher m = ROW.matcher(line.trim());
                if (m.matches()) {
                    rows.merge(m.group(1), 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return rows;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RsqldbDimJoinWithMysqlTest.class.getResourceAsStream("/rsqldb/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource rsqldb/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
