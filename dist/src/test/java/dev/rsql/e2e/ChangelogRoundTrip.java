package dev.rsql.e2e;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.data.RowKind;
import dev.rsql.runtime.testing.Await;
import dev.rsql.runtime.testing.CollectSinkFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A product table's changes in a changelog format (the inputs of the oracle case cdc-formats) read from a topic,
 * written to a second topic in the same format, read from there again and materialized by primary key: the result
 * must be the table the changes leave behind. Shared by the RocketMQ and Kafka tests.
 */
final class ChangelogRoundTrip {

    static final List<String> FORMATS = List.of("debezium-json", "canal-json", "maxwell-json");
    private static final Path INPUTS = Path.of("src", "test", "resources", "oracle-cases", "cdc-formats", "input");
    private static final String COLUMNS = "id BIGINT, name STRING, category STRING, price DECIMAL(10, 2), qty INT";

    private ChangelogRoundTrip() {
    }

    /** The changes in {@code format}, one message each. */
    static List<String> messages(String format) throws IOException {
        return Files.readAllLines(INPUTS.resolve("products_" + format.substring(0, format.indexOf('-')) + ".jsonl"),
                StandardCharsets.UTF_8);
    }

    /** The table the changes leave: id → the row as text. */
    static Map<Long, String> expectedTable() throws IOException {
        Map<Long, String> table = new TreeMap<>();
        for (String line : messages("debezium-json")) {
            JSONObject m = JSON.parseObject(line);
            if (m.getString("op").equals("d")) {
                table.remove(m.getJSONObject("before").getLong("id"));
            } else {
                JSONObject a = m.getJSONObject("after");
                table.put(a.getLong("id"), Arrays.toString(new Object[]{a.getLong("id"), a.getString("name"),
                        a.getString("category"), a.getBigDecimal("price").setScale(2), a.getInteger("qty")}));
            }
        }
        return table;
    }

    /**
     * The job: {@code source} (the input topic) copied into {@code written}, and {@code reread} (the same topic as
     * {@code written}) into collect sink {@code collectId} keyed by id.
     *
     * @param with a table's WITH clause for a topic in the format
     */
    static String script(String format, java.util.function.BiFunction<String, String, String> with, String in,
                         String mid, String collectId) {
        String include = format.equals("canal-json") ? ", 'canal-json.table.include' = 'products'" : "";
        return "CREATE TABLE source (" + COLUMNS + ")" + with.apply(in, ", 'format' = '" + format + "'" + include)
                + ";\nCREATE TABLE written (" + COLUMNS + ")" + with.apply(mid, ", 'format' = '" + format + "'")
                + ";\nCREATE TABLE reread (" + COLUMNS + ")" + with.apply(mid, ", 'format' = '" + format + "'")
                + ";\nCREATE TABLE final_table (" + COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('connector' = 'collect', 'id' = '" + collectId + "');\n"
                + "INSERT INTO written SELECT * FROM source;\n"
                + "INSERT INTO final_table SELECT * FROM reread;\n";
    }

    /** The rows of collect sink {@code id} applied by key (the first column). */
    static Map<Long, String> materialized(String id) {
        Map<Long, String> table = new TreeMap<>();
        for (Row r : CollectSinkFactory.rows(id)) {
            if (r.kind() == RowKind.DELETE) {
                table.remove((Long) r.get(0));
            } else if (r.kind() != RowKind.UPDATE_BEFORE) {
                table.put((Long) r.get(0), Arrays.toString(r.fields()));
            }
        }
        return table;
    }

    /** Waits until the collect sink holds the expected table. */
    static void awaitTable(String id, Map<Long, String> expected) {
        Supplier<String> what = () -> "the re-read table " + id + " (" + materialized(id).size() + " of "
                + expected.size() + " rows, equal: " + materialized(id).equals(expected) + ")";
        Await.until(what, Duration.ofSeconds(90), () -> materialized(id).equals(expected));
    }
}
