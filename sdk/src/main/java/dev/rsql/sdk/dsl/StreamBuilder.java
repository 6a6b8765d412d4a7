package dev.rsql.sdk.dsl;

import dev.rsql.planner.EmbeddedPlanner;
import dev.rsql.planner.PlannerContext;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorRegistry;
import dev.rsql.runtime.connector.LocalTimeZone;
import dev.rsql.runtime.format.FormatRegistry;
import dev.rsql.runtime.graph.ErrorPolicy;
import dev.rsql.runtime.graph.GraphBuilder;
import dev.rsql.runtime.table.TableDescriptor;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds one job in Java: sources of typed elements ({@link #source}), the operations of {@link RStream}, sinks, and
 * SQL over the same graph — a stream registered as a table ({@link #registerTable}) is read by SQL queries, a query's
 * result read as a stream ({@link #sqlQuery}), and DDL, SET and INSERT statements run as in a script ({@link #sql}).
 * {@link #build} gives the {@link Topology} to run.
 *
 * <pre>{@code
 * StreamBuilder b = new StreamBuilder("word-count");
 * b.source("lines", Line.class, Map.of("connector", "file", "path", "in.txt", "format", "json"))
 *         .flatMap(l -> List.of(l.text().split(" ")), String.class)
 *         .keyBy(w -> w, String.class)
 *         .count()
 *         .print("counts");
 * Topology t = b.build();
 * }</pre>
 */
public final class StreamBuilder {

    final GraphBuilder graph;
    private final String jobName;
    private final Map<String, String> settings;
    private final ClassLoader classLoader;
    private EmbeddedPlanner planner;
    private ConnectorRegistry connectors;
    private FormatRegistry formats;
    /** The tables read so far: reading one again gives the same source node, so it must be the same table. */
    private final Map<String, TableDescriptor> sources = new HashMap<>();
    private boolean built;

    public StreamBuilder(String jobName) {
        this(jobName, Map.of());
    }

    /**
     * @param settings the job's parameters, as a script's SET statements (e.g. {@code execution.mode} =
     *     {@code distributed}); the SQL of the job sees them too
     */
    public StreamBuilder(String jobName, Map<String, String> settings) {
        this(jobName, settings, Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : StreamBuilder.class.getClassLoader());
    }

    /** @param classLoader where SQL finds connectors, formats and user functions */
    public StreamBuilder(String jobName, Map<String, String> settings, ClassLoader classLoader) {
        this.jobName = jobName;
        this.settings = withUtcDefault(settings);
        this.classLoader = classLoader;
        this.graph = new GraphBuilder(jobName).parameters(new Options(this.settings));
    }

    /**
     * Elements' {@code Instant} and {@code LocalDateTime} fields are TIMESTAMP(3) in UTC, so the job's local time zone
     * (which sources apply to epoch numbers read into TIMESTAMP fields) is UTC unless the settings name one.
     */
    private static Map<String, String> withUtcDefault(Map<String, String> settings) {
        if (LocalTimeZone.KEYS.stream().anyMatch(settings::containsKey)) {
            return Map.copyOf(settings);
        }
        Map<String, String> s = new HashMap<>(settings);
        s.put("table.local-time-zone", "UTC");
        return Map.copyOf(s);
    }

    /**
     * A stream read from a table of a connector: {@code options} as in a WITH clause ({@code connector}, its options,
     * and a {@code format} such as {@code json} for a message queue or a file); the table's columns are {@code type}'s
     * ({@link RowMapping}), so a JSON object's fields fill the record's components by name.
     */
    public <T> RStream<T> source(String table, Class<T> type, Map<String, String> options) {
        RowMapping<T> mapping = RowMapping.of(type);
        TableDescriptor descriptor = Tables.descriptor(table, mapping.rowType(), options);
        TableDescriptor known = sources.putIfAbsent(table, descriptor);
        if (known != null && !(known.schema().rowType().equals(descriptor.schema().rowType())
                && known.options().asMap().equals(descriptor.options().asMap()))) {
            throw new IllegalArgumentException("table " + table + " is read twice as different tables (columns "
                    + known.schema().rowType() + " and " + descriptor.schema().rowType() + ", or other options): give "
                    + "each its own name");
        }
        GraphBuilder.Stream s = graph.source(descriptor, ErrorPolicy.of(table, new Options(options)), null);
        return new RStream<>(this, s, mapping, -1, 0);
    }

    /**
     * A stream read from a table of a connector whose payloads {@code deserializer} turns into elements (the table has
     * one STRING column read with the {@code raw} format): for payloads no format reads.
     */
    public <T> RStream<T> source(String table, Map<String, String> options, Class<T> type,
                                 Function<String, ? extends T> deserializer) {
        return source(table, String.class, Tables.rawFormat(table, options)).map(deserializer, type);
    }


    /**
     * Makes {@code stream} a table SQL can read: its columns are the element's, plus {@code rowtime} (with the
     * stream's watermarks) when it has event time, so SQL windows can run on it.
     */
    public void registerTable(String name, RStream<?> stream) {
        if (stream.stream.node().producesUpdates()) {
            throw new IllegalArgumentException("table " + name + ": an update stream (a query's result) cannot be "
                    + "registered as a table, which SQL reads as inserts; declare the query as a view with sql(\"CREATE "
                    + "VIEW ...\") instead");
        }
        planner().registerTable(name, stream.stream, stream.timeField < 0 ? null : RStream.ROWTIME,
                stream.watermarkDelay);
    }

    /** Runs SQL statements: CREATE TABLE / VIEW / FUNCTION, SET, and INSERT INTO (whose sinks join the job). */
    public void sql(String statements) {
        planner().execute(statements);
    }

    /**
     * A SELECT's result as a stream of {@code type}, whose fields are matched to the query's columns by name. When the
     * query updates its result (a GROUP BY without a window, a join...), the stream carries the updates: -U/+U and -D
     * rows reach its sinks as such.
     */
    public <T> RStream<T> sqlQuery(String select, Class<T> type) {
        GraphBuilder.Stream result = planner().query(select);
        RowMapping<T> mapping = RowMapping.of(type);
        RowType want = mapping.rowType();
        RowType have = result.rowType();
        int[] columns = new int[want.size()];
        boolean reordered = have.size() != want.size();
        for (int i = 0; i < want.size(); i++) {
            columns[i] = indexOf(have, want.name(i));
            if (columns[i] < 0) {
                throw new IllegalArgumentException("the query has no column " + want.name(i) + " for " + type.getName()
                        + ": its columns are " + have.names());
            }
            if (!sameValues(have.type(columns[i]), want.type(i))) {
                throw new IllegalArgumentException("column " + want.name(i) + " of the query is "
                        + have.type(columns[i]) + ", but " + type.getName() + " holds a " + want.type(i)
                        + ": CAST it in the query");
            }
            reordered |= columns[i] != i;
        }
        if (reordered) {
            result = result.calc(want, () -> in -> {
                Object[] out = new Object[columns.length];
                for (int i = 0; i < columns.length; i++) {
                    out[i] = in[columns[i]];
                }
                return out;
            }, "columns of " + mapping);
        }
        return new RStream<>(this, result, mapping, -1, 0);
    }

    private static int indexOf(RowType type, String name) {
        for (int i = 0; i < type.size(); i++) {
            if (type.name(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether values of {@code sql} are held as the Java class {@code java} expects (same internal class). */
    private static boolean sameValues(DataType sql, DataType java) {
        DataType.Kind a = sql.kind();
        DataType.Kind b = java.kind();
        return a == b || a.isCharacter() && b.isCharacter() || a.isBinary() && b.isBinary()
                || isTimestamp(a) && isTimestamp(b);
    }

    private static boolean isTimestamp(DataType.Kind kind) {
        return kind == DataType.Kind.TIMESTAMP || kind == DataType.Kind.TIMESTAMP_LTZ;
    }

    /** Whether a sink without a primary key can be written updates and deletes (its connector, or format, says). */
    boolean writesChangelog(TableDescriptor table) {
        if (connectors == null) {
            connectors = new ConnectorRegistry(classLoader);
            formats = new FormatRegistry(classLoader);
        }
        return !connectors.contains(table.connector())
                || connectors.get(table.connector()).sinkWritesChangelog(table.options(), formats);
    }

    private EmbeddedPlanner planner() {
        if (built) {
            throw new IllegalStateException("the topology of " + jobName + " is built already");
        }
        if (planner == null) {
            planner = new EmbeddedPlanner(new PlannerContext(new Options(settings), classLoader, System::getenv),
                    jobName, graph);
        }
        return planner;
    }

    /** The job: the graph of every stream written to a sink. */
    public Topology build() {
        if (planner != null) {
            planner.finish();
        }
        built = true;
        return new Topology(graph.build());
    }
}
