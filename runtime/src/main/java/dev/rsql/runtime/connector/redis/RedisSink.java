package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.Sink;
import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.connector.SinkWriterContext;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The writable side of a {@code redis} table: one connection per task ({@link RedisSinkWriter}). */
final class RedisSink implements Sink {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSink.class);

    private final RedisOptions options;
    private final RowType columns;
    private final String job;

    RedisSink(ConnectorContext context) {
        this.options = RedisOptions.of(context.table());
        this.columns = context.table().schema().physicalRowType();
        this.job = context.job().name();
    }

    @Override
    public SinkWriter createWriter(SinkWriterContext context) throws Exception {
        LOG.info("job={} table={} task={}: writing {}", job, options.table(), context.taskId(), options.describe());
        return new RedisSinkWriter(options, columns);
    }

    @Override
    public void close() {
    }
}
