package dev.rsql.runtime.connector.datagen;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.Source;

import java.util.Set;

/**
 * Connector {@code datagen} (alias Blink's {@code random}): generates rows for the declared schema.
 *
 * <p>Options: {@code rows-per-second} (default 10000 for the whole source; 0 or negative: as fast as possible),
 * {@code number-of-rows} (bounded: ends after that many rows in total), {@code shards} (default 1), {@code seed}
 * (deterministic values, except for columns that follow the clock), and per column {@code fields.<name>.kind}
 * ({@code random} or {@code sequence} with {@code start} and {@code end}; a sequence makes the source bounded and
 * its values are spread over the shards so each appears once), {@code min}/{@code max}, {@code length},
 * {@code null-rate}, {@code values} (comma-separated) and {@code max-past} (ms of random lag of DATE/TIME/TIMESTAMP
 * columns, which otherwise follow the current time).
 */
public final class DatagenConnectorFactory implements ConnectorFactory {

    @Override
    public String identifier() {
        return "datagen";
    }

    @Override
    public Set<String> aliases() {
        return Set.of("random");
    }

    /** The source reads its options when constructed and starts nothing until {@link Source#start}. */
    @Override
    public void validateSource(ConnectorContext context) {
        new DatagenSource(context);
    }

    @Override
    public Source createSource(ConnectorContext context) {
        return new DatagenSource(context);
    }
}
