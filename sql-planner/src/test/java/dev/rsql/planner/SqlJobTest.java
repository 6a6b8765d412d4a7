package dev.rsql.planner;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.testing.ValuesSourceFactory;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rsql.planner.testing.TestJob.rows;
import static dev.rsql.planner.testing.TestJob.run;
import static dev.rsql.planner.testing.TestJob.sink;
import static dev.rsql.planner.testing.TestJob.source;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Scripts planned and run end to end over in-memory sources and sinks: expression semantics and graph wiring. */
class SqlJobTest {

    @Test
    void arithmeticCaseAndThreeValuedLogic() throws Exception {
        ValuesSourceFactory.register("orders_a", List.of(
                "{\"id\":1,\"amount\":100.5,\"qty\":2,\"status\":\"NEW\"}",
                "{\"id\":2,\"amount\":null,\"qty\":3,\"status\":\"PAID\"}",
                "{\"id\":3,\"amount\":10,\"qty\":null,\"status\":\"CANCELLED\"}",
                "{\"id\":4,\"amount\":-5,\"qty\":7}"));
        Map<String, List<Row>> out = run(source("orders_a", "id BIGINT, amount DOUBLE, qty INT, status VARCHAR")
                + sink("o", "id BIGINT, total DOUBLE, q INT, cls VARCHAR, code INT, big BOOLEAN")
                + "INSERT INTO o SELECT id, amount * qty, -qty + 1, "
                + "CASE WHEN amount IS NULL THEN 'UNK' WHEN amount >= 100 THEN 'BIG' ELSE 'SMALL' END, "
                + "CASE status WHEN 'NEW' THEN 1 WHEN 'PAID' THEN 2 ELSE 0 END, amount > 50 "
                + "FROM orders_a WHERE status <> 'CANCELLED' OR status IS NULL", "o");
        assertEquals(List.of(
                "[1, 201.0, -1, BIG, 1, true]",
                "[2, null, -2, UNK, 2, null]",
                "[4, -35.0, -6, SMALL, 0, false]"), rows(out.get("o")));
    }

    @Test
    void inLikeBetweenAndIntegerDivision() throws Exception {
        ValuesSourceFactory.register("orders_b", List.of(
                "{\"id\":1,\"product\":\"banana\",\"cat\":\"fruit\",\"n\":7}",
                "{\"id\":2,\"product\":\"milk\",\"cat\":\"dairy\",\"n\":4}",
                "{\"id\":3,\"product\":\"bun\",\"cat\":\"bakery\",\"n\":8}",
                "{\"id\":4,\"product\":null,\"cat\":null,\"n\":null}"));
        Map<String, List<Row>> out = run(source("orders_b", "id INT, product VARCHAR, cat VARCHAR, n INT")
                + sink("o", "id INT, fruit BOOLEAN, has_u BOOLEAN, mid BOOLEAN, half INT")
                + "INSERT INTO o SELECT id, cat IN ('fruit', 'veg'), product LIKE 'b_n%', n BETWEEN 5 AND 7, n / 2 "
                + "FROM orders_b WHERE id NOT IN (2, 22, 222, 2222, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23)",
                "o");
        assertEquals(List.of(
                "[1, true, true, true, 3]",
                "[3, false, true, false, 4]",
                "[4, null, null, null, null]"), rows(out.get("o")));
    }

    @Test
    void nestedRowsComputedColumnsAndDecimal() throws Exception {
        ValuesSourceFactory.register("bids", List.of(
                "{\"kind\":2,\"bid\":{\"auction\":7,\"price\":1000,\"dateTime\":\"2024-03-01 10:00:01.390\"}}",
                "{\"kind\":1,\"bid\":null}"));
        Map<String, List<Row>> out = run("CREATE TABLE bids (kind INT, bid ROW<auction BIGINT, price BIGINT, `dateTime` TIMESTAMP>,"
                + " ts AS bid.`dateTime`, WATERMARK FOR ts AS withOffset(ts, 1000)) WITH (type = 'values', id = 'bids');\n"
                + sink("o", "auction BIGINT, price DECIMAL(23, 3), ts TIMESTAMP")
                + "CREATE VIEW b AS SELECT bid.auction, bid.price, ts FROM bids WHERE kind = 2;\n"
                + "INSERT INTO o SELECT auction, 0.908 * price, ts FROM b", "o");
        List<Row> rows = out.get("o");
        assertEquals(1, rows.size());
        assertEquals(7L, rows.get(0).get(0));
        assertEquals(0, new BigDecimal("908.000").compareTo((BigDecimal) rows.get(0).get(1)));
        assertEquals(java.sql.Timestamp.valueOf("2024-03-01 10:00:01.390").toLocalDateTime()
                .toInstant(java.time.ZoneOffset.UTC).toEpochMilli(), rows.get(0).get(2));
    }

    @Test
    void oneSourceFeedsSeveralInsertsAndOneSinkTakesSeveral() throws Exception {
        List<String> payloads = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            payloads.add("{\"id\":" + i + ",\"amount\":" + (i % 100 - 10) + "}");
        }
        ValuesSourceFactory.register("many", payloads.subList(0, 500), payloads.subList(500, 1000));
        Map<String, List<Row>> out = run(source("many", "id INT, amount INT")
                + sink("pos", "id INT") + sink("flagged", "id INT, reason VARCHAR")
                + "INSERT INTO pos SELECT id FROM many WHERE amount > 0;\n"
                + "INSERT INTO flagged SELECT id, 'big' FROM many WHERE amount > 85;\n"
                + "INSERT INTO flagged SELECT id, 'neg' FROM many WHERE amount < 0;\n", "pos", "flagged");
        assertEquals(1000 - 10 * 11, out.get("pos").size());
        assertEquals(10 * 4 + 10 * 10, out.get("flagged").size());
        assertEquals(10 * 10, out.get("flagged").stream().filter(r -> "neg".equals(r.get(1))).count());
    }

    @Test
    void insertWithColumnListFillsTheRestWithNulls() throws Exception {
        ValuesSourceFactory.register("cl", List.of("{\"a\":1,\"b\":\"x\"}"));
        Map<String, List<Row>> out = run(source("cl", "a INT, b VARCHAR")
                + sink("o", "x VARCHAR, y BIGINT, z VARCHAR")
                + "INSERT INTO o (z, y) SELECT b, a FROM cl", "o");
        assertEquals(List.of("[null, 1, x]"), rows(out.get("o")));
    }
}
