package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The options of one Kafka table, read once when its source or sink is created, with Flink's names (see
 * {@link KafkaConnectorFactory} for the list). Every mistake is a {@link ConfigException} naming the option.
 */
final class KafkaOptions {

    enum StartupMode { GROUP_OFFSETS, EARLIEST, LATEST, TIMESTAMP, SPECIFIC_OFFSETS }

    enum Partitioner { DEFAULT, FIXED, ROUND_ROBIN }

    enum DeliveryGuarantee { NONE, AT_LEAST_ONCE, EXACTLY_ONCE }

    static final String TOPIC = "topic";
    static final String TOPIC_PATTERN = "topic-pattern";
    static final String PROPERTIES = "properties.";
    static final String BOOTSTRAP = "properties.bootstrap.servers";
    static final String GROUP_ID = "properties.group.id";
    static final String STARTUP_MODE = "scan.startup.mode";
    static final String STARTUP_TIMESTAMP = "scan.startup.timestamp-millis";
    static final String STARTUP_OFFSETS = "scan.startup.specific-offsets";
    static final String KEY_FORMAT = "key.format";
    static final String KEY_FIELDS = "key.fields";
    static final String VALUE_FIELDS_INCLUDE = "value.fields-include";
    static final String PARTITIONER = "sink.partitioner";
    static final String DELIVERY = "sink.delivery-guarantee";
    static final String BUFFER = "scan.partition-buffer-size";

    final String table;
    final String job;
    final String instanceId;
    final Options options;
    final List<String> topics;          // empty when topic-pattern is set
    final Pattern topicPattern;         // null unless topic-pattern is set
    final String bootstrapServers;
    /** True for {@code upsert-kafka}: the key is the primary key, deletes are tombstones. */
    final boolean upsert;

    KafkaOptions(ConnectorContext context, boolean upsert) {
        this.table = context.table().name();
        this.job = context.job().name();
        this.instanceId = context.job().instanceId();
        this.options = context.options();
        this.upsert = upsert;
        // every properties.* option goes to the client: none is without effect
        options.withPrefix(PROPERTIES);
        String t = options.get(TOPIC);
        String p = options.get(TOPIC_PATTERN);
        if ((t == null || t.isBlank()) == (p == null || p.isBlank())) {
            throw error(t == null ? TOPIC_PATTERN : TOPIC, "exactly one of the options 'topic' and 'topic-pattern' "
                    + "is required");
        }
        this.topics = new ArrayList<>();
        if (t != null) {
            for (String s : t.split("[;,]")) {
                if (!s.isBlank()) {
                    topics.add(s.trim());
                }
            }
            this.topicPattern = null;
        } else {
            try {
                this.topicPattern = Pattern.compile(p.trim());
            } catch (PatternSyntaxException e) {
                throw error(TOPIC_PATTERN, "option 'topic-pattern' is not a regular expression: " + e.getDescription());
            }
        }
        String b = options.get(BOOTSTRAP);
        if (b == null || b.isBlank()) {
            throw error(BOOTSTRAP, "option 'properties.bootstrap.servers' is required");
        }
        this.bootstrapServers = b.trim();
    }

    ConfigException error(String option, String message) {
        return new ConfigException(options.containsKey(option) ? option : null,
                "table " + table + " (connector " + (upsert ? "upsert-kafka" : "kafka") + "): " + message, null);
    }

    /** A failure talking to the brokers; messages built from client errors have secrets masked. */
    IllegalStateException unavailable(String message, Exception cause) {
        return new IllegalStateException(options.redact("table " + table + " (connector kafka): " + message), cause);
    }

    /** The topics or the pattern, for logs and the source's identity. */
    String describeTopics() {
        return topicPattern != null ? "topic-pattern " + topicPattern.pattern() : "topic " + String.join(",", topics);
    }

    /** Every {@code properties.*} option without the prefix: passed to the Kafka client as they are. */
    Properties clientProperties(String role) {
        Properties p = new Properties();
        options.withPrefix(PROPERTIES).asMap().forEach(p::put);
        p.putIfAbsent("client.id", "rsql-" + job.replace('/', '.') + "-" + table + "-" + role + "-" + instanceId);
        return p;
    }

    String groupId() {
        String g = options.get(GROUP_ID);
        return g == null || g.isBlank() ? "rsql_" + job.replace('/', '_') + "_" + table : g.trim();
    }

    /** Whether {@code scan.startup.mode} was given (group offsets asked for by name count even in a local job). */
    boolean startupModeSet() {
        return options.get(STARTUP_MODE) != null;
    }

    StartupMode startupMode() {
        String m = options.get(STARTUP_MODE);
        if (m == null || m.isBlank()) {
            return StartupMode.GROUP_OFFSETS;
        }
        switch (m.trim().toLowerCase(Locale.ROOT)) {
            case "group-offsets":
                return StartupMode.GROUP_OFFSETS;
            case "earliest-offset":
                return StartupMode.EARLIEST;
            case "latest-offset":
                return StartupMode.LATEST;
            case "timestamp":
                return StartupMode.TIMESTAMP;
            case "specific-offsets":
                return StartupMode.SPECIFIC_OFFSETS;
            default:
                throw error(STARTUP_MODE, "option 'scan.startup.mode' is '" + m + "'; expected group-offsets, "
                        + "earliest-offset, latest-offset, timestamp or specific-offsets");
        }
    }

    long startupTimestamp() {
        String v = options.get(STARTUP_TIMESTAMP);
        if (v == null || v.isBlank()) {
            throw error(STARTUP_MODE, "scan.startup.mode 'timestamp' needs 'scan.startup.timestamp-millis'");
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw error(STARTUP_TIMESTAMP, "option 'scan.startup.timestamp-millis' is '" + v
                    + "'; expected epoch milliseconds");
        }
    }

    /** {@code partition:0,offset:42;partition:1,offset:300} as partition → offset. */
    Map<Integer, Long> specificOffsets() {
        String v = options.get(STARTUP_OFFSETS);
        if (v == null || v.isBlank()) {
            throw error(STARTUP_MODE, "scan.startup.mode 'specific-offsets' needs 'scan.startup.specific-offsets' "
                    + "(e.g. 'partition:0,offset:42;partition:1,offset:300')");
        }
        Map<Integer, Long> out = new HashMap<>();
        for (String entry : v.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            Integer partition = null;
            Long offset = null;
            for (String kv : entry.split(",")) {
                String[] parts = kv.split(":", 2);
                try {
                    if (parts.length == 2 && parts[0].trim().equalsIgnoreCase("partition")) {
                        partition = Integer.parseInt(parts[1].trim());
                    } else if (parts.length == 2 && parts[0].trim().equalsIgnoreCase("offset")) {
                        offset = Long.parseLong(parts[1].trim());
                    }
                } catch (NumberFormatException e) {
                    partition = null;
                }
            }
            if (partition == null || offset == null || partition < 0 || offset < 0) {
                throw error(STARTUP_OFFSETS, "option 'scan.startup.specific-offsets' has '" + entry.trim()
                        + "'; expected 'partition:<n>,offset:<n>' entries separated by ';'");
            }
            out.put(partition, offset);
        }
        return out;
    }

    int partitionBufferSize() {
        int n = options.getInt(10_000, BUFFER);
        if (n < 1) {
            throw error(BUFFER, "option '" + BUFFER + "' must be positive");
        }
        return n;
    }

    /**
     * The columns of the message key: {@code key.fields} ({@code ;}-separated, Flink's form; {@code ,} accepted), or
     * for upsert-kafka the primary key. Empty when the key is not read or written.
     */
    int[] keyColumns(TableSchema schema) {
        RowType rowType = schema.rowType();
        List<String> names = new ArrayList<>();
        String v = options.get(KEY_FIELDS);
        if (upsert) {
            if (schema.primaryKey().isEmpty()) {
                throw error(TOPIC, "connector 'upsert-kafka' needs a PRIMARY KEY (its columns are the message key)");
            }
            if (v != null && !v.isBlank()) {
                throw error(KEY_FIELDS, "connector 'upsert-kafka' takes its key from the PRIMARY KEY, not "
                        + "'key.fields'");
            }
            names.addAll(schema.primaryKey());
        } else if (v != null) {
            for (String s : v.split("[;,]")) {
                if (!s.isBlank()) {
                    names.add(s.trim());
                }
            }
        }
        int[] out = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            int idx = rowType.indexOf(names.get(i));
            if (idx < 0 || !schema.columns().get(idx).isPhysical()) {
                throw error(upsert ? TOPIC : KEY_FIELDS, "key column '" + names.get(i)
                        + "' is not a physical column of the table " + rowType);
            }
            out[i] = idx;
        }
        if (out.length > 0 && options.get(KEY_FORMAT) == null) {
            throw error(KEY_FIELDS, "a message key (" + String.join(", ", names) + ") needs the option 'key.format'");
        }
        if (out.length == 0 && options.get(KEY_FORMAT) != null) {
            throw error(KEY_FORMAT, "option 'key.format' needs 'key.fields' (the columns of the key)");
        }
        return out;
    }

    /** {@code value.fields-include}: ALL (default; EXCEPT_KEY for upsert-kafka as well only when asked). */
    boolean valueIncludesKey() {
        String v = options.get(VALUE_FIELDS_INCLUDE);
        if (v == null || v.isBlank() || v.trim().equalsIgnoreCase("ALL")) {
            return true;
        }
        if (v.trim().equalsIgnoreCase("EXCEPT_KEY")) {
            return false;
        }
        throw error(VALUE_FIELDS_INCLUDE, "option 'value.fields-include' is '" + v + "'; expected ALL or EXCEPT_KEY");
    }

    /** Positions of the physical columns the value format carries. */
    int[] valueColumns(TableSchema schema, int[] keyColumns) {
        boolean withKey = valueIncludesKey();
        List<Column> columns = schema.columns();
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).isPhysical() && (withKey || !contains(keyColumns, i))) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /** The row type of the given columns. */
    static RowType project(RowType rowType, int[] columns) {
        List<String> names = new ArrayList<>();
        List<dev.rsql.runtime.types.DataType> types = new ArrayList<>();
        for (int c : columns) {
            names.add(rowType.name(c));
            types.add(rowType.type(c));
        }
        return new RowType(names, types);
    }

    Partitioner partitioner() {
        String v = options.get(PARTITIONER);
        if (v == null || v.isBlank()) {
            return Partitioner.DEFAULT;
        }
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "default":
                return Partitioner.DEFAULT;
            case "fixed":
                return Partitioner.FIXED;
            case "round-robin":
                return Partitioner.ROUND_ROBIN;
            default:
                throw error(PARTITIONER, "option 'sink.partitioner' is '" + v + "'; expected default, fixed or "
                        + "round-robin");
        }
    }

    DeliveryGuarantee deliveryGuarantee() {
        String v = options.get(DELIVERY);
        if (v == null || v.isBlank()) {
            return DeliveryGuarantee.AT_LEAST_ONCE;
        }
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "none":
                return DeliveryGuarantee.NONE;
            case "at-least-once":
                return DeliveryGuarantee.AT_LEAST_ONCE;
            case "exactly-once":
                throw error(DELIVERY, "'sink.delivery-guarantee' = 'exactly-once' is not supported yet: a Kafka "
                        + "transaction cannot be committed by the process that takes over after a crash; use "
                        + "'at-least-once' (the default, with an idempotent producer)");
            default:
                throw error(DELIVERY, "option 'sink.delivery-guarantee' is '" + v + "'; expected none, "
                        + "at-least-once or exactly-once");
        }
    }
}
