package dev.rsql.runtime.connector.kafka;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.exec.JobMdc;
import dev.rsql.runtime.format.FormatMetadata;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.RowType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The readable side of Kafka topics: one {@link KafkaConsumer} per source table, subscribed in the table's consumer
 * group ({@code properties.group.id}), so that every process running the job gets a share of the partitions through
 * Kafka's group rebalancing, as RocketMQ shares its queues. Each partition assigned here is one shard, a
 * {@link KafkaShardReader}; a partition taken away is revoked from the engine first (its task finishes, flushes and
 * commits), then dropped.
 *
 * <p>The consumer is not thread-safe, so one poller thread owns it: it polls, hands records to the readers, pauses
 * and resumes partitions, and runs the commits the tasks ask for at checkpoints ({@link #commit}, which waits for
 * the poller). Rebalance callbacks run on the poller too; while a revoked partition's task commits, the callback
 * keeps serving commits.
 *
 * <p>Where an assigned partition starts: the job's checkpointed position; else the group's committed offset when
 * the engine lets it count ({@link ShardListener#resumesCommittedOffsets}) or {@code scan.startup.mode} is
 * {@code group-offsets} by name; else the startup mode ({@code group-offsets} with nothing committed reads from the
 * earliest offset).
 */
final class KafkaSource implements Source {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSource.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(50);
    private static final long COMMIT_TIMEOUT_MS = 60_000;
    private static final String PROPERTY_OFFSET_RESET = KafkaOptions.PROPERTIES + ConsumerConfig.AUTO_OFFSET_RESET_CONFIG;

    private final KafkaOptions options;
    private final ConnectorContext context;
    private final KafkaOptions.StartupMode mode;
    private final boolean groupOffsetsAsked;
    private final int[] keyColumns;
    private final int[] valueColumns;
    private final ZoneId zone;
    private final Map<TopicPartition, KafkaShardReader> readers = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Runnable> requests = new ConcurrentLinkedQueue<>();
    private final List<String> shardIds = new ArrayList<>();

    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile ShardListener listener;
    private volatile boolean running;
    private volatile Thread poller;

    KafkaSource(KafkaOptions options, ConnectorContext context) {
        this.options = options;
        this.context = context;
        this.mode = options.startupMode();
        this.groupOffsetsAsked = mode == KafkaOptions.StartupMode.GROUP_OFFSETS && options.startupModeSet();
        this.zone = zone(context);
        TableSchema schema = context.table().schema();
        this.keyColumns = options.keyColumns(schema);
        this.valueColumns = options.valueColumns(schema, keyColumns);
        // Everything that can be checked is checked before any connection is made.
        if (mode == KafkaOptions.StartupMode.TIMESTAMP) {
            options.startupTimestamp();
        } else if (mode == KafkaOptions.StartupMode.SPECIFIC_OFFSETS) {
            options.specificOffsets();
        }
        options.partitionBufferSize();
        newValueDecoder();
        newKeyDecoder();
        metadataReaders();
    }

    private static ZoneId zone(ConnectorContext context) {
        String z = context.job().config().get("table.local-time-zone");
        try {
            return z == null || z.isBlank() || z.equalsIgnoreCase("default") ? ZoneId.systemDefault()
                    : ZoneId.of(z.trim());
        } catch (RuntimeException e) {
            return ZoneId.systemDefault();
        }
    }

    @Override
    public boolean isBounded() {
        return false;
    }

    @Override
    public void start(ShardListener listener) throws Exception {
        this.listener = listener;
        Properties p = options.clientProperties("consumer");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        // Offsets are committed at checkpoints only; a seek to an offset gone by retention reads from the earliest.
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        KafkaConsumer<byte[], byte[]> c;
        try {
            c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw options.error(KafkaOptions.BOOTSTRAP, "cannot create the Kafka consumer: "
                    + options.options.redact(e.getMessage()));
        }
        try {
            List<String> topics = existingTopics(c);
            ConsumerRebalanceListener rebalance = new Rebalance();
            if (options.topicPattern != null) {
                c.subscribe(options.topicPattern, rebalance);
            } else {
                c.subscribe(topics, rebalance);
            }
            LOG.info("job={} table={}: consuming {} ({} partitions) as group {} from {}, start when no committed "
                            + "offset: {}", options.job, options.table, options.describeTopics(), shardIds.size(),
                    options.groupId(), options.bootstrapServers, mode.name().toLowerCase().replace('_', '-'));
        } catch (RuntimeException e) {
            c.close(Duration.ZERO);
            throw e;
        }
        this.consumer = c;
        running = true;
        Thread t = new Thread(JobMdc.carrying(options.job, this::pollLoop),
                "rsql-kafka-poller-" + options.job.replace('/', '.') + "-" + options.table);
        t.setDaemon(true);
        poller = t;
        t.start();
    }

    /** The topics read (those matching the pattern), each checked to exist; records their partitions as shards. */
    private List<String> existingTopics(KafkaConsumer<byte[], byte[]> c) {
        Map<String, List<PartitionInfo>> all;
        try {
            all = c.listTopics(Duration.ofSeconds(60));
        } catch (KafkaException e) {
            throw options.unavailable("cannot list the topics of " + options.bootstrapServers + ": "
                    + e.getMessage(), e);
        }
        List<String> topics = new ArrayList<>();
        if (options.topicPattern != null) {
            all.keySet().stream().filter(t -> options.topicPattern.matcher(t).matches()).sorted().forEach(topics::add);
        } else {
            for (String t : options.topics) {
                if (!all.containsKey(t)) {
                    throw options.unavailable("topic '" + t + "' does not exist on " + options.bootstrapServers,
                            null);
                }
                topics.add(t);
            }
        }
        for (String t : topics) {
            for (PartitionInfo info : all.get(t)) {
                shardIds.add(KafkaShardReader.shardId(new TopicPartition(t, info.partition())));
            }
        }
        return topics;
    }

    @Override
    public String identity() {
        return options.describeTopics();
    }

    @Override
    public List<String> allShardIds() {
        return List.copyOf(shardIds);
    }

    // ---- the poller thread ----

    private void pollLoop() {
        KafkaConsumer<byte[], byte[]> c = consumer;
        while (running) {
            try {
                serveRequests();
                ConsumerRecords<byte[], byte[]> records = c.poll(POLL_TIMEOUT);
                for (TopicPartition tp : records.partitions()) {
                    KafkaShardReader r = readers.get(tp);
                    if (r != null && r.offer(records.records(tp), c.currentLag(tp).orElse(-1))) {
                        c.pause(List.of(tp));
                    }
                }
            } catch (InterruptException e) {
                break;
            } catch (KafkaException | IllegalStateException e) {
                if (running) {
                    LOG.error("job={} table={}: the Kafka consumer failed", options.job, options.table, e);
                    running = false;
                    listener.sourceFailed(options.unavailable("the Kafka consumer failed: " + e.getMessage(), e));
                }
            }
        }
        // Commits asked for while stopping still complete, so no task waits for the full timeout.
        serveRequests();
    }

    private void serveRequests() {
        Runnable r;
        while ((r = requests.poll()) != null) {
            r.run();
        }
    }

    /** Runs {@code action} on the poller thread (or here, when called from it) and waits for it. */
    private void onPoller(Runnable action) throws Exception {
        if (Thread.currentThread() == poller || !running) {
            action.run();
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        requests.add(() -> {
            try {
                action.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(COMMIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    /** Kafka's group rebalancing, called on the poller thread inside {@code poll}. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                KafkaShardReader r = readers.get(tp);
                if (r == null) {
                    continue;
                }
                r.revoke();
                LOG.info("job={} table={}: partition revoked: {} at offset {}; waiting for its task to commit",
                        options.job, options.table, r.description(), r.position());
                // The task commits through this thread: serve its commit while waiting for it.
                CompletableFuture<Void> revoked = CompletableFuture.runAsync(() -> listener.shardRevoked(r.shardId()),
                        task -> new Thread(task, "rsql-kafka-revoke-" + r.shardId()).start());
                while (!revoked.isDone()) {
                    serveRequests();
                    try {
                        revoked.get(10, TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.TimeoutException e) {
                        // keep serving
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (java.util.concurrent.ExecutionException e) {
                        LOG.warn("job={} table={}: revoking {} failed", options.job, options.table,
                                r.description(), e.getCause());
                    }
                }
                readers.remove(tp, r);
                r.close();
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!running || partitions.isEmpty()) {
                return;
            }
            ShardListener l = listener;
            List<KafkaShardReader> added = new ArrayList<>();
            try {
                Map<TopicPartition, Long> starts = startOffsets(partitions, l);
                for (TopicPartition tp : partitions) {
                    long start = starts.get(tp);
                    consumer.seek(tp, start);
                    KafkaShardReader r = new KafkaShardReader(KafkaSource.this, tp, start, newValueDecoder(),
                            newKeyDecoder(), keyColumns, metadataReaders(), options.partitionBufferSize());
                    readers.put(tp, r);
                    added.add(r);
                    LOG.info("job={} table={}: partition assigned: {} starting at offset {}", options.job,
                            options.table, r.description(), start);
                }
            } catch (KafkaException e) {
                LOG.error("job={} table={}: cannot position partitions {}", options.job, options.table, partitions, e);
                l.sourceFailed(options.unavailable("cannot find where to start reading " + partitions + ": "
                        + e.getMessage(), e));
                return;
            }
            l.shardsAssigned(added);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            // Another member may own them already: their tasks finish what they hold but commit nothing (the group
            // would refuse it), so the new owner replays from the last committed offset.
            for (TopicPartition tp : partitions) {
                KafkaShardReader r = readers.get(tp);
                if (r != null) {
                    r.lose();
                }
            }
            onPartitionsRevoked(partitions);
        }
    }

    /** Where each newly assigned partition starts (see the class comment). */
    private Map<TopicPartition, Long> startOffsets(Collection<TopicPartition> partitions, ShardListener l) {
        Map<TopicPartition, Long> out = new HashMap<>();
        List<TopicPartition> rest = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OptionalLong checkpointed = l.checkpointedPosition(KafkaShardReader.shardId(tp));
            if (checkpointed.isPresent()) {
                out.put(tp, checkpointed.getAsLong());
            } else {
                rest.add(tp);
            }
        }
        if (rest.isEmpty()) {
            return out;
        }
        if (l.resumesCommittedOffsets() || groupOffsetsAsked) {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(rest));
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
                if (e.getValue() != null) {
                    out.put(e.getKey(), e.getValue().offset());
                    rest.remove(e.getKey());
                }
            }
        }
        if (rest.isEmpty()) {
            return out;
        }
        Map<TopicPartition, Long> earliest = consumer.beginningOffsets(rest);
        switch (mode) {
            case LATEST:
                out.putAll(consumer.endOffsets(rest));
                break;
            case TIMESTAMP: {
                long ts = options.startupTimestamp();
                Map<TopicPartition, Long> query = new HashMap<>();
                rest.forEach(tp -> query.put(tp, ts));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
                Map<TopicPartition, Long> end = consumer.endOffsets(rest);
                for (TopicPartition tp : rest) {
                    OffsetAndTimestamp o = found.get(tp);
                    out.put(tp, o == null ? end.get(tp) : o.offset());
                }
                break;
            }
            case SPECIFIC_OFFSETS: {
                Map<Integer, Long> specific = options.specificOffsets();
                Map<TopicPartition, Long> end = consumer.endOffsets(rest);
                for (TopicPartition tp : rest) {
                    Long o = specific.get(tp.partition());
                    out.put(tp, o == null ? earliest.get(tp) : Math.max(earliest.get(tp), Math.min(end.get(tp), o)));
                }
                break;
            }
            case GROUP_OFFSETS:
                // Nothing committed: Kafka's own reset policy if the table sets it to latest, else the earliest.
                out.putAll("latest".equalsIgnoreCase(options.options.get(PROPERTY_OFFSET_RESET))
                        ? consumer.endOffsets(rest) : earliest);
                break;
            default:
                out.putAll(earliest);
        }
        return out;
    }

    // ---- called by readers ----

    void resume(TopicPartition tp) {
        requests.add(() -> {
            if (readers.containsKey(tp) && consumer.assignment().contains(tp)) {
                consumer.resume(List.of(tp));
            }
        });
    }

    /** Stores {@code offset} as the group's committed offset of the reader's partition; returns once stored. */
    void commit(KafkaShardReader reader, long offset) throws Exception {
        if (consumer == null) {
            throw new IllegalStateException("the consumer of table " + options.table + " is not running");
        }
        if (reader.isLost()) {
            LOG.info("job={} table={}: {} was lost to another member of the group; offset {} not committed",
                    options.job, options.table, reader.description(), offset);
            return;
        }
        onPoller(() -> consumer.commitSync(Map.of(reader.partition(), new OffsetAndMetadata(offset))));
    }

    void readerClosed(KafkaShardReader reader) {
        readers.remove(reader.partition(), reader);
    }

    private RowDecoder newValueDecoder() {
        TableSchema schema = context.table().schema();
        RowType types = KafkaOptions.project(schema.rowType(), valueColumns);
        return context.createDecoder("json", types, valueColumns, schema.columns().size());
    }

    private RowDecoder newKeyDecoder() {
        if (keyColumns.length == 0) {
            return null;
        }
        TableSchema schema = context.table().schema();
        RowType types = KafkaOptions.project(schema.rowType(), keyColumns);
        return context.createDecoder(KafkaOptions.KEY_FORMAT, "json", types, keyColumns, schema.columns().size());
    }

    private KafkaMetadata.Reader[] metadataReaders() {
        List<Column> columns = context.table().schema().columns();
        List<KafkaMetadata.Reader> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).isMetadata() && !FormatMetadata.isFormatKey(columns.get(i).metadataKey())) {
                out.add(new KafkaMetadata.Reader(i, columns.get(i), options, zone));
            }
        }
        return out.toArray(new KafkaMetadata.Reader[0]);
    }

    @Override
    public void close() {
        running = false;
        Thread p = poller;
        if (p != null) {
            try {
                p.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (KafkaShardReader r : new ArrayList<>(readers.values())) {
            r.close();
        }
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.close(Duration.ofSeconds(5));
            LOG.info("job={} table={}: consumer of group {} closed", options.job, options.table, options.groupId());
        }
    }
}
