package dev.rsql.runtime.connector.datagen;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.table.Column;
import dev.rsql.runtime.table.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/** Splits the generation into shards; owns the timer that wakes throttled readers. */
final class DatagenSource implements Source {

    private final String table;
    private final List<FieldSpec> fields = new ArrayList<>();
    private final int shards;
    private final long numberOfRows;     // -1 when unbounded by count
    private final double rowsPerSecond;  // <= 0: unthrottled
    private final long seed;
    private final boolean bounded;
    private ScheduledExecutorService timer;

    DatagenSource(ConnectorContext context) {
        this.table = context.table().name();
        Options o = context.options();
        TableSchema schema = context.table().schema();
        List<String> names = new ArrayList<>();
        for (Column c : schema.columns()) {
            if (c.isMetadata()) {
                throw new ConfigException("datagen table " + table + ": column " + c.name()
                        + " cannot be a METADATA column (datagen provides no metadata)");
            }
            names.add(c.name());
        }
        FieldSpec.checkFieldNames(table, o, names);
        for (Column c : schema.columns()) {
            fields.add(new FieldSpec(table, c.name(), c.type(), o));
        }
        this.shards = o.getInt(1, "shards", "parallelism");
        if (shards < 1) {
            throw ConfigException.ofOption("shards", "datagen table " + table + ": option 'shards' must be at least 1");
        }
        String n = o.get("number-of-rows", "numberOfRows", "rows", "number.of.rows");
        this.numberOfRows = n == null || n.isBlank() ? -1 : o.getLong(-1, "number-of-rows", "numberOfRows", "rows",
                "number.of.rows");
        if (n != null && !n.isBlank() && numberOfRows < 0) {
            throw ConfigException.ofOption("number-of-rows",
                    "datagen table " + table + ": option 'number-of-rows' must not be negative");
        }
        this.rowsPerSecond = o.getDouble(10_000, "rows-per-second", "rowsPerSecond", "rows.per.second");
        String s = o.get("seed");
        this.seed = s == null || s.isBlank() ? ThreadLocalRandom.current().nextLong() : o.getLong(0, "seed");
        this.bounded = numberOfRows >= 0 || fields.stream().anyMatch(f -> f.sequence);
    }

    @Override
    public boolean isBounded() {
        return bounded;
    }

    @Override
    public void start(ShardListener listener) {
        double perShard = rowsPerSecond <= 0 ? 0 : rowsPerSecond / shards;
        if (perShard > 0) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "rsql-datagen-" + table);
                t.setDaemon(true);
                return t;
            });
        }
        List<DatagenShardReader> readers = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            long limit = numberOfRows >= 0 ? numberOfRows / shards + (i < numberOfRows % shards ? 1 : 0) : -1;
            FieldGenerator[] gens = new FieldGenerator[fields.size()];
            for (int f = 0; f < gens.length; f++) {
                FieldSpec spec = fields.get(f);
                if (spec.sequence) {
                    long len = spec.sequenceLength();
                    long part = len / shards + (i < len % shards ? 1 : 0);
                    long offset = i * (len / shards) + Math.min(i, len % shards);
                    limit = limit < 0 ? part : Math.min(limit, part);
                    gens[f] = spec.generator(offset);
                } else {
                    gens[f] = spec.generator(0);
                }
            }
            readers.add(new DatagenShardReader(table, i, gens, limit, perShard,
                    seed * 0x9E3779B97F4A7C15L + i, timer, listener.checkpointedPosition("datagen-" + i).orElse(0)));
        }
        listener.shardsAssigned(readers);
        listener.noMoreShards();
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
