package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.rocketmq.RocketMqNames;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.remoting.RPCHook;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The options of one RocketMQ table, read once when its source or sink is created. Every key is looked up with its
 * Flink-style name first, then the Blink / rsqldb aliases (see {@link RocketMqConnectorFactory} for the list).
 */
final class RocketMqOptions {

    /** Where a queue without a committed offset of the consumer group starts. */
    enum StartupMode { GROUP_OFFSETS, EARLIEST, LATEST, TIMESTAMP, SPECIFIC_OFFSET }

    static final String[] TOPIC = {"topic"};
    static final String[] NAMESRV = {"nameserver", "nameServerAddress", "namesrvAddr", "namesrv", "endPoint",
            "name-server", "namesrv.addr"};
    static final String[] ENGINE_NAMESRV = {"rocketmq.namesrv", "namesrv.addr", "NAMESRV_ADDR", "rocketmq.namesrv.addr"};
    static final String[] CONSUMER_GROUP = {"consumerGroup", "scan.group-id", "groupName", "group", "group.id"};
    static final String[] PRODUCER_GROUP = {"producerGroup", "sink.producer-group"};
    static final String[] TAG = {"tag", "scan.tag", "tags"};
    static final String[] STARTUP_MODE = {"scan.startup.mode", "startupMode", "startup-mode"};
    static final String[] STARTUP_TIMESTAMP = {"scan.startup.timestamp-millis", "startTimeMs", "startTimeMillis"};
    static final String[] START_TIME = {"startTime", "scan.startup.time"};
    static final String[] START_OFFSET = {"startMessageOffset", "scan.startup.offset"};
    static final String[] ACCESS_ID = {"accessId"};
    static final String[] ACCESS_KEY = {"accessKey", "access-key"};
    static final String[] SECRET_KEY = {"secretKey", "secret-key"};
    static final String[] PULL_BATCH = {"scan.pull-batch-size", "pullBatchSize"};
    static final String[] QUEUE_BUFFER = {"scan.queue-buffer-size"};
    static final String[] QUEUE_BUFFER_BYTES = {"scan.queue-buffer-bytes"};
    static final String[] PULL_THREADS = {"scan.pull-threads", "pullThreadNums"};
    static final String[] SINK_BATCH_SIZE = {"sink.batch-size", "batchSize"};
    static final String[] SINK_BATCH_BYTES = {"sink.batch-bytes"};
    static final String[] SINK_SEND_TIMEOUT = {"sink.send-timeout", "sendTimeoutMs", "sendMsgTimeout"};
    static final String[] SINK_RETRIES = {"sink.retries", "retryTimes", "maxRetryTimes"};
    static final String[] SINK_FLUSH_TIMEOUT = {"sink.flush-timeout"};
    static final String[] SINK_RETRY_TIMEOUT = {"sink.retry-timeout"};
    static final String[] SINK_MAX_PENDING = {"sink.max-pending-messages"};
    static final String[] SINK_TX_COMMIT_WINDOW = {"sink.transaction.commit-window"};
    static final String[] SINK_TX_MAX_IN_FLIGHT = {"sink.transaction.max-in-flight"};
    static final String[] SINK_TX_MODE = {"sink.transaction.mode"};
    static final String[] SINK_TX_PUBLISH_TIMEOUT = {"sink.transaction.publish-timeout"};
    static final String[] KEY_COLUMNS = {"sink.key-columns", "keyColumns", "keyColumn", "key.fields"};
    static final String[] TAG_COLUMN = {"sink.tag-column", "tagColumn"};

    private static final DateTimeFormatter START_TIME_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    final String table;
    final String job;
    final String instanceId;
    final String topic;
    final String namesrv;
    final Options options;
    final RPCHook rpcHook;

    private RocketMqOptions(ConnectorContext context) {
        this.table = context.table().name();
        this.job = context.job().name();
        this.instanceId = context.job().instanceId();
        this.options = context.options();
        String t = options.get(TOPIC);
        if (t == null || t.isBlank()) {
            throw error("option 'topic' is required");
        }
        this.topic = t.trim();
        this.namesrv = nameServer(context);
        // Blink/rsqldb keys such as pullIntervalMs or maxThread are left unread: check reports them as ignored.
        this.rpcHook = aclHook();
    }

    static RocketMqOptions of(ConnectorContext context) {
        return new RocketMqOptions(context);
    }

    ConfigException error(String message) {
        return new ConfigException("table " + table + " (connector rocketmq): " + message);
    }

    /**
     * A request to the broker or name server failed. The RocketMQ failure stays the cause: a job restarts after one
     * that goes away by itself (the broker was unreachable, see {@code TransientFailures}) and ends after any other.
     */
    IllegalStateException unavailable(String message, Exception cause) {
        return new IllegalStateException("table " + table + " (connector rocketmq): " + message, cause);
    }

    /** An error about the option found under one of {@code keys}. */
    ConfigException error(String[] keys, String message) {
        String key = null;
        for (String k : keys) {
            if (options.containsKey(k)) {
                key = k;
                break;
            }
        }
        return new ConfigException(key, "table " + table + " (connector rocketmq): " + message, null);
    }

    private String nameServer(ConnectorContext context) {
        String v = options.get(NAMESRV);
        if (v == null || v.isBlank()) {
            v = context.job().config().get(ENGINE_NAMESRV);
        }
        if (v == null || v.isBlank()) {
            throw error("no name server address: set the table option 'nameserver' (also accepted: "
                    + String.join(", ", List.of(NAMESRV).subList(1, NAMESRV.length))
                    + ") or the engine setting 'rocketmq.namesrv' (also accepted: namesrv.addr, NAMESRV_ADDR)");
        }
        // Blink endPoint values may carry a scheme; RocketMQ wants host:port[;host:port].
        String s = v.trim();
        if (s.startsWith("http://")) {
            s = s.substring("http://".length());
        }
        return s.replace(',', ';');
    }

    /**
     * ACL credentials: Flink style {@code accessKey} + {@code secretKey}, or Blink style {@code accessId} (the key
     * id) + {@code accessKey} (the secret). Null when none is set.
     */
    private RPCHook aclHook() {
        String accessId = options.get(ACCESS_ID);
        String ak;
        String sk;
        if (accessId != null && !accessId.isBlank()) {
            ak = accessId;
            sk = options.get(ACCESS_KEY);
            if (sk == null) {
                throw error("option 'accessId' needs 'accessKey' (the secret)");
            }
        } else {
            ak = options.get(ACCESS_KEY);
            sk = options.get(SECRET_KEY);
            if (ak == null && sk == null) {
                return null;
            }
            if (ak == null || sk == null) {
                throw error("options 'accessKey' and 'secretKey' must be set together");
            }
        }
        return new AclClientRPCHook(new SessionCredentials(ak.trim(), sk.trim()));
    }

    // ---- names ----

    String consumerGroup() {
        String g = options.get(CONSUMER_GROUP);
        String group = g == null || g.isBlank() ? "rsql_" + job + "_" + table : g.trim();
        return checkedGroup(RocketMqNames.sanitize(group, RocketMqNames.MAX_GROUP_LENGTH));
    }

    String producerGroup() {
        return producerGroup("_producer");
    }

    /** The producer group of a transactional sink: the same in every process of the job, for the broker's checks. */
    String transactionalProducerGroup() {
        return producerGroup("_tx");
    }

    /** Option {@code producerGroup} as given, else {@code rsql_<job>_<table><defaultSuffix>}. */
    private String producerGroup(String defaultSuffix) {
        String g = options.get(PRODUCER_GROUP);
        String group = g == null || g.isBlank() ? "rsql_" + job + "_" + table + defaultSuffix : g.trim();
        return checkedGroup(RocketMqNames.sanitize(group, RocketMqNames.MAX_GROUP_LENGTH));
    }

    private String checkedGroup(String sanitized) {
        if (sanitized.equals("DEFAULT_CONSUMER") || sanitized.equals("DEFAULT_PRODUCER")) {
            throw error("group name '" + sanitized + "' is reserved by RocketMQ");
        }
        return sanitized;
    }

    /**
     * The RocketMQ client instance name: clients with the same name in one JVM share one connection set and cannot
     * both join the same group, so it includes this process's instance id, the job, the table and the role.
     */
    String clientInstanceName(String role) {
        return RocketMqNames.sanitize("rsql@" + instanceId + "@" + job + "@" + table + "@" + role,
                RocketMqNames.MAX_GROUP_LENGTH);
    }

    // ---- source ----

    String subscription() {
        String tag = options.get(TAG);
        if (tag == null || tag.isBlank()) {
            return "*";
        }
        // Blink lists tags with commas; RocketMQ's tag expression uses ||.
        String t = tag.trim();
        if (!t.contains("||") && t.contains(",")) {
            List<String> parts = new ArrayList<>();
            for (String p : t.split(",")) {
                if (!p.isBlank()) {
                    parts.add(p.trim());
                }
            }
            t = String.join("||", parts);
        }
        return t;
    }

    /** True when the table names its startup mode, rather than taking the default. */
    boolean startupModeSet() {
        String mode = options.get(STARTUP_MODE);
        return mode != null && !mode.isBlank();
    }

    StartupMode startupMode() {
        String mode = options.get(STARTUP_MODE);
        if (mode == null || mode.isBlank()) {
            if (options.get(START_OFFSET) != null) {
                return StartupMode.SPECIFIC_OFFSET;
            }
            if (options.get(STARTUP_TIMESTAMP) != null || options.get(START_TIME) != null) {
                return StartupMode.TIMESTAMP;
            }
            return StartupMode.GROUP_OFFSETS;
        }
        switch (mode.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "group-offsets":
            case "group-offset":
            case "group":
                return StartupMode.GROUP_OFFSETS;
            case "earliest":
            case "earliest-offset":
                return StartupMode.EARLIEST;
            case "latest":
            case "latest-offset":
                return StartupMode.LATEST;
            case "timestamp":
                return StartupMode.TIMESTAMP;
            case "specific-offset":
            case "specific-offsets":
                return StartupMode.SPECIFIC_OFFSET;
            default:
                throw error(STARTUP_MODE, "option 'scan.startup.mode' must be group-offsets, earliest, latest, "
                        + "timestamp or specific-offset, got '" + mode + "'");
        }
    }

    /** The start timestamp in epoch milliseconds, for {@link StartupMode#TIMESTAMP}. */
    long startupTimestamp(ZoneId zone) {
        String millis = options.get(STARTUP_TIMESTAMP);
        if (millis != null && !millis.isBlank()) {
            try {
                return Long.parseLong(millis.trim());
            } catch (NumberFormatException e) {
                throw error(STARTUP_TIMESTAMP, "option 'scan.startup.timestamp-millis' must be epoch milliseconds, "
                        + "got '" + millis + "'");
            }
        }
        String time = options.get(START_TIME);
        if (time == null || time.isBlank()) {
            throw error("scan.startup.mode 'timestamp' needs 'scan.startup.timestamp-millis' (epoch milliseconds) "
                    + "or 'startTime' (yyyy-MM-dd HH:mm:ss)");
        }
        String t = time.trim();
        try {
            if (t.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(t);
            }
            LocalDateTime ldt = t.length() == 10 ? LocalDate.parse(t).atStartOfDay()
                    : LocalDateTime.parse(t.replace('T', ' '), START_TIME_FORMAT);
            return ldt.atZone(zone).toInstant().toEpochMilli();
        } catch (DateTimeParseException | NumberFormatException e) {
            throw error(START_TIME, "option 'startTime' must look like 2024-01-31 12:00:00, got '" + time + "'");
        }
    }

    long startOffset() {
        return options.getLong(-1, START_OFFSET);
    }

    int pullBatchSize() {
        return positive(options.getInt(256, PULL_BATCH), PULL_BATCH, 1024);
    }

    /** The consumer's pull threads at least; it has one per queue it reads in any case (GroupConsumer.pull). */
    int pullThreads() {
        return positive(options.getInt(1, PULL_THREADS), PULL_THREADS, 1024);
    }

    int queueBufferSize() {
        return positive(options.getInt(16_384, QUEUE_BUFFER), QUEUE_BUFFER, Integer.MAX_VALUE);
    }

    long queueBufferBytes() {
        long v = options.getLong(8L * 1024 * 1024, QUEUE_BUFFER_BYTES);
        if (v < 1024) {
            throw error(QUEUE_BUFFER_BYTES, "option 'scan.queue-buffer-bytes' must be at least 1024, got " + v);
        }
        return v;
    }

    // ---- sink ----

    int sinkBatchSize() {
        return positive(options.getInt(128, SINK_BATCH_SIZE), SINK_BATCH_SIZE, 10_000);
    }

    int sinkBatchBytes() {
        return positive(options.getInt(1024 * 1024, SINK_BATCH_BYTES), SINK_BATCH_BYTES, 4 * 1024 * 1024);
    }

    int sendTimeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE,
                Math.max(1, options.getDuration(Duration.ofSeconds(3), SINK_SEND_TIMEOUT).toMillis()));
    }

    int sendRetries() {
        int r = options.getInt(2, SINK_RETRIES);
        if (r < 0) {
            throw error(SINK_RETRIES, "option 'sink.retries' must not be negative, got " + r);
        }
        return r;
    }

    /** How long a batch is retried after transient failures (broker busy, timeouts) before the sink fails. */
    Duration retryTimeout() {
        return options.getDuration(Duration.ofMinutes(2), SINK_RETRY_TIMEOUT);
    }

    Duration flushTimeout() {
        return options.getDuration(Duration.ofSeconds(60), SINK_FLUSH_TIMEOUT);
    }

    int maxPendingMessages() {
        return positive(options.getInt(20_000, SINK_MAX_PENDING), SINK_MAX_PENDING, Integer.MAX_VALUE);
    }

    /**
     * How long after sending a half message the sink still commits it itself; older ones are committed by the
     * broker's transaction check (see {@link HalfMessageCommitter} for why). Must stay below the broker's
     * transactionTimeOut minus transactionOpBatchInterval (defaults 6 s and 3 s). Null when not set: the sink then
     * derives it from the brokers' configuration.
     */
    Duration transactionCommitWindow() {
        if (options.get(SINK_TX_COMMIT_WINDOW) == null) {
            return null;
        }
        Duration d = options.getDuration(Duration.ofSeconds(2), SINK_TX_COMMIT_WINDOW);
        if (d.isNegative() || d.isZero()) {
            throw error(SINK_TX_COMMIT_WINDOW, "option 'sink.transaction.commit-window' must be positive, got " + d);
        }
        return d;
    }

    /**
     * How a distributed job's sink makes rows visible exactly once: {@code stage} (the default) keeps a checkpoint's
     * rows with it and publishes them once it is recorded ({@link RocketMqStagedSinkWriter}); {@code half-messages}
     * sends them as RocketMQ transactional half messages ({@link RocketMqTransactionalSinkWriter}).
     */
    boolean stagesTransactions() {
        String mode = options.get(SINK_TX_MODE);
        if (mode == null || mode.trim().equalsIgnoreCase("stage")) {
            return true;
        }
        if (mode.trim().equalsIgnoreCase("half-messages")) {
            return false;
        }
        throw error(SINK_TX_MODE, "option 'sink.transaction.mode' must be 'stage' or 'half-messages', got '" + mode
                + "'");
    }

    /**
     * How long a staging writer may take to publish a recorded checkpoint's rows; a restore that finds some missing
     * waits until the checkpoint is this old before publishing them, so that the writer that staged them cannot
     * still be at it. Longer than the send timeout.
     */
    Duration transactionPublishTimeout() {
        Duration d = options.getDuration(Duration.ofSeconds(10), SINK_TX_PUBLISH_TIMEOUT);
        if (d.toMillis() <= sendTimeoutMillis()) {
            throw error(SINK_TX_PUBLISH_TIMEOUT, "option 'sink.transaction.publish-timeout' must be longer than "
                    + "the send timeout (" + sendTimeoutMillis() + " ms), got " + d);
        }
        return d;
    }

    /** Half messages, and ends of different keys, one transactional writer has in flight at most. */
    int transactionMaxInFlight() {
        return positive(options.getInt(256, SINK_TX_MAX_IN_FLIGHT), SINK_TX_MAX_IN_FLIGHT, 65_536);
    }

    List<String> keyColumns() {
        String v = options.get(KEY_COLUMNS);
        List<String> cols = new ArrayList<>();
        if (v != null) {
            for (String p : v.split(",")) {
                if (!p.isBlank()) {
                    cols.add(p.trim());
                }
            }
        }
        return cols;
    }

    String tagColumn() {
        String v = options.get(TAG_COLUMN);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** A constant tag for every message the sink writes (option {@code tag}), or null. */
    String constantTag() {
        String v = options.get(TAG);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private int positive(int value, String[] keys, int max) {
        if (value < 1 || value > max) {
            throw error(keys, "option '" + keys[0] + "' must be between 1 and " + max + ", got " + value);
        }
        return value;
    }

    /**
     * Default format: csv for Blink tables that declare a field delimiter; else json, unless rsqldb's
     * {@code isJsonData = 'false'} says the body is text: raw (the whole body as the single column).
     */
    String defaultFormat() {
        return defaultFormat(options);
    }

    static String defaultFormat(Options tableOptions) {
        if (tableOptions.containsKey("fieldDelimiter") || tableOptions.containsKey("lineDelimiter")) {
            return "csv";
        }
        return tableOptions.getBoolean(true, "isJsonData") ? "json" : "raw";
    }
}
