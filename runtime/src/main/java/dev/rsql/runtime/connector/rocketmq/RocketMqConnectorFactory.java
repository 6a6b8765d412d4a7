package dev.rsql.runtime.connector.rocketmq;

import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.FormatRegistry;

import java.util.Set;

/**
 * Connector {@code rocketmq} (Blink {@code type='mq'} / {@code 'metaq'}): reads and writes RocketMQ 5 topics with the
 * remoting client. Option keys are case-insensitive; each line lists the Flink-style key first, then the Blink /
 * rsqldb aliases.
 *
 * <h2>Both sides</h2>
 * <ul>
 *   <li>{@code topic} (required).</li>
 *   <li>{@code nameserver} / {@code nameServerAddress} / {@code namesrvAddr} / {@code namesrv} / {@code endPoint}:
 *       {@code host:port[;host:port]}; default: the engine setting {@code rocketmq.namesrv} (also
 *       {@code namesrv.addr}, {@code NAMESRV_ADDR}). One of them is required.</li>
 *   <li>{@code format} (default {@code json}; {@code csv} when the Blink option {@code fieldDelimiter} is set):
 *       the message body of the physical columns. Format options such as {@code fieldDelimiter} and
 *       {@code json.fail-on-missing-field} pass through.</li>
 *   <li>ACL: {@code accessKey} + {@code secretKey}, or Blink {@code accessId} + {@code accessKey}.</li>
 *   <li>Metadata columns ({@code METADATA FROM 'key'}, or Blink {@code HEADER} columns): see {@link MessageMetadata}
 *       for the keys ({@code tag}, {@code keys}, {@code queue_id}, {@code queue_offset}, {@code born_timestamp},
 *       {@code properties}, any user property, ...).</li>
 * </ul>
 *
 * <h2>Source</h2>
 * <ul>
 *   <li>{@code consumerGroup} / {@code scan.group-id} / {@code groupName} / {@code group}: default
 *       {@code rsql_<job>_<table>} (characters RocketMQ does not allow become {@code _}). Every process running the
 *       job joins this group and RocketMQ splits the topic's queues between them; each queue is one task.</li>
 *   <li>{@code tag} / {@code scan.tag} / {@code tags}: subscription expression, e.g. {@code a||b} (Blink's
 *       {@code a,b} is accepted); default {@code *}.</li>
 *   <li>{@code scan.startup.mode} / {@code startupMode}: where a queue starts <em>when the group has no committed
 *       offset for it</em>: {@code group-offsets} (default), {@code earliest}, {@code latest}, {@code timestamp}
 *       (with {@code scan.startup.timestamp-millis} / {@code startTimeMs}, or {@code startTime} as
 *       {@code yyyy-MM-dd HH:mm:ss} in the engine time zone {@code table.local-time-zone}), {@code specific-offset}
 *       (Blink {@code startMessageOffset}). Setting {@code startTime} or {@code startMessageOffset} alone implies the
 *       matching mode. {@code group-offsets} with nothing committed starts at the <b>earliest</b> offset, so a job
 *       started before its producers misses nothing even if its first poll is slow. Once the group has committed an
 *       offset for a queue, that offset always wins: stopping and restarting a job neither loses records nor replays
 *       more than what followed the last checkpoint.</li>
 *   <li>{@code scan.pull-batch-size} / {@code pullBatchSize} (default 256), {@code scan.pull-threads} /
 *       {@code pullThreadNums} (the consumer's pull threads at least: it has one per queue the process reads, since
 *       a pull of a caught-up queue waits at the broker on its thread; default 1),
 *       {@code scan.queue-buffer-size} / {@code scan.queue-buffer-bytes} (what is buffered per queue before the
 *       queue is paused; default 16384 messages / 8 MiB).</li>
 * </ul>
 * Commits happen at the engine's checkpoints, after the sinks are flushed: the committed offset of a queue is the
 * next offset to read, stored synchronously on the broker in the consumer group.
 *
 * <h2>Sink</h2>
 * <ul>
 *   <li>{@code producerGroup} / {@code sink.producer-group}: default {@code rsql_<job>_<table>_producer}.</li>
 *   <li>Message key: a metadata column {@code keys} (or {@code key}), else option {@code sink.key-columns} /
 *       {@code keyColumns} (comma list of columns; the key is their values joined with {@code |}, NULL as empty).
 *       Rows with a key go to queue {@code hash(key) mod queues}, so one key's rows stay in order; rows without one
 *       are spread round-robin.</li>
 *   <li>Tag: a metadata column {@code tag}, else option {@code sink.tag-column} / {@code tagColumn}, else the
 *       constant option {@code tag}.</li>
 *   <li>{@code sink.batch-size} (messages per batch, default 128), {@code sink.batch-bytes} (default 1 MiB),
 *       {@code sink.send-timeout} (default 3 s), {@code sink.retries} (default 2), {@code sink.flush-timeout}
 *       (default 60 s), {@code sink.max-pending-messages} (default 20000).</li>
 * </ul>
 * Rows of other kinds than INSERT are written too (the JSON format marks them with an {@code op} member).
 *
 * <h2>Exactly-once sink</h2>
 * When the job runs distributed (transactional), rows become transactional half messages committed at the
 * checkpoints of their task, in producer group {@code rsql_<job>_<table>_tx_<task>} (or {@code <producerGroup>_<task>})
 * registered by the process running the task; halves left open by a crash are resolved by the broker's transaction
 * check, which that process answers. Options:
 * {@code sink.transaction.commit-window} (halves older than this at commit are left to the broker's check; default
 * half of the brokers' {@code transactionTimeOut} minus {@code transactionOpBatchInterval}; make {@code
 * transactionTimeOut} longer than a checkpoint so that the sink commits nearly everything itself),
 * {@code sink.transaction.max-in-flight} (half messages sent, and ends of different keys, at a time per task, default
 * 256; halves cannot be batched). See {@link HalfMessageCommitter} for the guarantees.
 */
public final class RocketMqConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "rocketmq";
    }

    @Override
    public Set<String> aliases() {
        return Set.of("mq", "metaq");
    }

    /** The source checks its options when constructed and connects only when started. */
    @Override
    public void validateSource(ConnectorContext context) {
        new RocketMqSource(RocketMqOptions.of(context), context);
    }

    @Override
    public void validateSink(ConnectorContext context) {
        RocketMqSink.validate(RocketMqOptions.of(context), context);
    }

    @Override
    public Source createSource(ConnectorContext context) {
        return new RocketMqSource(RocketMqOptions.of(context), context);
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new RocketMqSink(RocketMqOptions.of(context), context);
    }

    /** A message keeps a row's kind only in a format that encodes it (json's {@code op}). */
    @Override
    public boolean sinkWritesChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.encodesRowKind(tableOptions, RocketMqOptions.defaultFormat(tableOptions));
    }

    @Override
    public boolean sourceReadsChangelog(Options tableOptions, FormatRegistry formats) {
        return formats.decodesChangelog(tableOptions, RocketMqOptions.defaultFormat(tableOptions));
    }
}
