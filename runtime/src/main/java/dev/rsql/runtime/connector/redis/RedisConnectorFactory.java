package dev.rsql.runtime.connector.redis;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.connector.Sink;

/**
 * Connector {@code redis} (Blink's {@code type = 'redis'}): a Redis server as a sink (strings and hashes, upserts
 * and deletes; {@link RedisSinkWriter}) and as a dimension table of lookup joins ({@link RedisLookupSource}). Options:
 * {@link RedisOptions}; how rows map to keys: {@link RedisMode}. Checking a script connects to nothing.
 */
public final class RedisConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "redis";
    }

    @Override
    public void validateSink(ConnectorContext context) {
        RedisOptions.of(context.table());
    }

    @Override
    public void validateLookup(ConnectorContext context) {
        new RedisLookupSource(context);
    }

    @Override
    public Sink createSink(ConnectorContext context) {
        return new RedisSink(context);
    }

    @Override
    public LookupSource createLookupSource(ConnectorContext context) {
        return new RedisLookupSource(context);
    }
}
