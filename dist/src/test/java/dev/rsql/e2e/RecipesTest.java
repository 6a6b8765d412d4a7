package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.planner.PlannerContext;
import dev.rsql.planner.ScriptPlanner;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.exec.EngineContext;
import dev.rsql.runtime.exec.JobInstance;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.MariaDbServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Connect-style recipes of docs/recipes.md, run as written (only their placeholders set) against real services:
 * a CDC topic kept in a MariaDB table, and a RocketMQ topic copied into Kafka.
 */
class RecipesTest extends BrokerFixture {

    private static final Path RECIPES = Path.of("..", "docs", "recipes").toAbsolutePath().normalize();

    private static JobInstance start(String recipe, Map<String, String> placeholders) throws Exception {
        Map<String, String> settings = new TreeMap<>(Map.of("rocketmq.namesrv", broker.nameServerAddress(),
                "checkpoint.interval", "200ms", "worker.threads", "2", "instance.id", "it-" + UUID.randomUUID(),
                "state.dir", stateDir.toString()));
        Options config = new Options(settings);
        String script = Files.readString(RECIPES.resolve(recipe), StandardCharsets.UTF_8);
        JobInstance job = new JobInstance(new ScriptPlanner(new PlannerContext(config,
                RecipesTest.class.getClassLoader(), placeholders::get)).plan(recipe.replace(".sql", ""), script)
                .graph(), new EngineContext(config, RecipesTest.class.getClassLoader()));
        job.start();
        return job;
    }

    @Test
    void cdcTopicToMysql(@TempDir Path dir) throws Exception {
        try (MariaDbServer db = MariaDbServer.start(dir.resolve("mariadb"))) {
            db.execute("CREATE TABLE products_copy (id BIGINT PRIMARY KEY, name VARCHAR(50), category VARCHAR(20),"
                    + " price DECIMAL(10, 2), qty INT)");
            String topic = "mysql_shop_products_" + UUID.randomUUID().toString().substring(0, 6);
            broker.createTopic(topic, 1);
            RocketMqSqlJobTest.produce(topic, ChangelogRoundTrip.messages("debezium-json"), "cdc", null);
            Map<Long, String> expected = new TreeMap<>();
            ChangelogRoundTrip.expectedTable().forEach((id, row) -> expected.put(id, row.replace("[", "")
                    .replace("]", "").replace(", ", "|")));
            JobInstance job = start("cdc_topic_to_mysql.sql", Map.of("CDC_TOPIC", topic, "MYSQL_URL", db.url(),
                    "MYSQL_USER", db.user(), "MYSQL_PASSWORD", db.password()));
            try {
                Await.until(() -> "the copy to hold the table's " + expected.size() + " rows", Duration.ofSeconds(90),
                        () -> table(db).equals(expected));
            } finally {
                job.stop();
            }
        }
    }

    private static Map<Long, String> table(MariaDbServer db) {
        Map<Long, String> rows = new TreeMap<>();
        try {
            for (String r : db.query("SELECT id, name, category, price, qty FROM products_copy")) {
                rows.put(Long.parseLong(r.substring(0, r.indexOf('|'))), r);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    @Test
    void rocketMqToKafka(@TempDir Path dir) throws Exception {
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"))) {
            String orders = "orders_" + UUID.randomUUID().toString().substring(0, 6);
            broker.createTopic(orders, 4);
            kafka.createTopic("paid_orders", 3);
            List<String> in = new ArrayList<>();
            Map<String, Integer> expected = new TreeMap<>();
            for (int i = 0; i < 500; i++) {
                String status = i % 4 == 0 ? "NEW" : "PAID";
                in.add("{\"order_id\":" + i + ",\"customer\":\"客户" + (i % 13) + "\",\"amount\":" + i + ".50,\"status\":\""
                        + status + "\",\"city\":\"杭州\"}");
                if (status.equals("PAID")) {
                    expected.merge("客户" + (i % 13) + "|" + i + "|" + i + ".50|杭州", 1, Integer::sum);
                }
            }
            RocketMqSqlJobTest.produce(orders, in, "o", null);
            JobInstance job = start("rocketmq_to_kafka.sql", Map.of("ORDERS_TOPIC", orders, "KAFKA_SERVERS",
                    kafka.bootstrapServers(), "KAFKA_TOPIC", "paid_orders"));
            try {
                int n = expected.values().stream().mapToInt(Integer::intValue).sum();
                List<ConsumerRecord<byte[], byte[]>> records = kafka.readUntil("paid_orders", n);
                Map<String, Integer> got = new TreeMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    JSONObject v = JSON.parseObject(new String(r.value(), StandardCharsets.UTF_8));
                    JSONObject k = JSON.parseObject(new String(r.key(), StandardCharsets.UTF_8));
                    assertEquals(v.getString("customer"), k.getString("customer"), "keyed by customer");
                    got.merge(v.getString("customer") + "|" + v.getLong("order_id") + "|"
                            + v.getBigDecimal("amount").setScale(2, RoundingMode.UNNECESSARY) + "|"
                            + v.getString("city"), 1, Integer::sum);
                }
                assertEquals(expected, got);
            } finally {
                job.stop();
            }
        }
    }
}
