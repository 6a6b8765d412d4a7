package dev.rsql.runtime.testing;

import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.ConnectorFactory;
import dev.rsql.runtime.connector.ReaderOutput;
import dev.rsql.runtime.connector.ShardListener;
import dev.rsql.runtime.connector.ShardReader;
import dev.rsql.runtime.connector.Source;
import dev.rsql.runtime.format.RowDecoder;
import dev.rsql.runtime.table.TableSchema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test connector {@code values}: a source over payloads registered with {@link #register} under the option
 * {@code id}, one shard per registered list, decoded with the table's format. It ends after the registered payloads
 * unless the option {@code bounded} is {@code false}: then it stays open and reads what {@link #append} adds.
 */
public final class ValuesSourceFactory implements ConnectorFactory {

    private static final Map<String, List<Shard>> DATA = new ConcurrentHashMap<>();

    /** The payloads of a shard, and whom to tell when more are appended. */
    private static final class Shard {
        final List<String> payloads;
        volatile Runnable availability = () -> { };

        Shard(List<String> payloads) {
            this.payloads = new CopyOnWriteArrayList<>(payloads);
        }
    }

    /** Registers the payloads of each shard. */
    @SafeVarargs
    public static void register(String id, List<String>... shards) {
        List<Shard> list = new ArrayList<>();
        for (List<String> shard : shards) {
            list.add(new Shard(shard));
        }
        DATA.put(id, List.copyOf(list));
    }

    /** Adds payloads to a shard of an unbounded source while it runs. */
    public static void append(String id, int shard, String... payloads) {
        Shard s = DATA.get(id).get(shard);
        s.payloads.addAll(List.of(payloads));
        s.availability.run();
    }

    @Override
    public String identifier() {
        return "values";
    }

    @Override
    public Source createSource(ConnectorContext context) {
        String id = context.options().require("id");
        boolean bounded = !"false".equalsIgnoreCase(context.options().get("bounded"));
        List<Shard> shards = DATA.getOrDefault(id, List.of());
        TableSchema schema = context.table().schema();
        return new Source() {
            @Override
            public boolean isBounded() {
                return bounded;
            }

            @Override
            public void start(ShardListener listener) {
                for (int i = 0; i < shards.size(); i++) {
                    RowDecoder decoder = context.createDecoder("json", schema.physicalRowType(),
                            schema.physicalPositions(), schema.columns().size());
                    Reader r = new Reader(id + "-" + i, shards.get(i), decoder, bounded);
                    r.next = (int) listener.checkpointedPosition(r.shardId()).orElse(0);
                    listener.shardAssigned(r);
                }
                listener.noMoreShards();
            }

            @Override
            public void close() {
            }
        };
    }

    private static final class Reader implements ShardReader {
        private final String id;
        private final Shard shard;
        private final List<String> payloads;
        private final RowDecoder decoder;
        private final boolean bounded;
        private int next;

        Reader(String id, Shard shard, RowDecoder decoder, boolean bounded) {
            this.id = id;
            this.shard = shard;
            this.payloads = shard.payloads;
            this.decoder = decoder;
            this.bounded = bounded;
        }

        @Override
        public String shardId() {
            return id;
        }

        @Override
        public String description() {
            return "values " + id;
        }

        @Override
        public int read(ReaderOutput output, int maxRecords) throws Exception {
            int n = 0;
            while (n < maxRecords && next < payloads.size()) {
                long position = next;
                byte[] payload = payloads.get(next++).getBytes(StandardCharsets.UTF_8);
                try {
                    List<Object[]> rows = new ArrayList<>();
                    decoder.decode(payload, rows::add);
                    for (Object[] r : rows) {
                        output.emit(position, r);
                    }
                } catch (dev.rsql.runtime.format.DecodeException e) {
                    output.decodeError(position, payload, e);
                }
                n++;
            }
            return n;
        }

        @Override
        public boolean isEndOfInput() {
            return bounded && next >= payloads.size();
        }

        @Override
        public void setAvailabilityListener(Runnable listener) {
            shard.availability = listener;
        }

        @Override
        public String describePosition(long position) {
            return "values " + id + ", record " + position;
        }

        @Override
        public long position() {
            return next;
        }

        @Override
        public void commit(long position) {
            // Nothing to commit: the payloads live in memory; a restart resumes from the checkpointed position.
        }

        @Override
        public void close() {
        }
    }
}
