package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.LookupCacheMode;
import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.connector.LookupSource;
import dev.rsql.runtime.table.TableSchema;
import dev.rsql.runtime.types.DataType;
import dev.rsql.runtime.types.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A MySQL/MariaDB table as a dimension table: point lookups by key columns through prepared statements on a small
 * connection pool ({@link JdbcLookupReader}), and full scans for the full cache. A scan is split into id ranges
 * queried in parallel when the table has a numeric partition column ({@code scan.partition.column}, rsqldb's
 * {@code idFieldName}, or else a single-column numeric primary key): {@code MIN}/{@code MAX} of it, then
 * {@code [lo, hi)} ranges; otherwise it is one query. rsqldb's tables ({@code type = 'rds' | 'mysql' | 'db'}) are
 * fully cached unless they say otherwise, as rsqldb always loads them; Flink's ({@code 'connector' = 'jdbc'}) are
 * not cached unless they say so.
 */
final class JdbcLookupSource implements LookupSource {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcLookupSource.class);

    private final JdbcOptions options;
    private final JdbcConnector connector;
    private final JdbcConnectionPool pool;
    private final String job;
    private final String tableName;
    private final boolean rsqldbSurface;
    /** The table's columns; only physical ones are read, metadata columns stay null. */
    private final int arity;
    private final int[] physicalPositions;
    private final RowType physical;
    private final String partitionColumn;

    JdbcLookupSource(ConnectorContext context) {
        this.options = JdbcOptions.of(context.options());
        this.job = context.job().name();
        this.tableName = context.table().name();
        String connectorName = context.table().connector();
        this.rsqldbSurface = connectorName != null && !connectorName.equalsIgnoreCase("jdbc");
        TableSchema schema = context.table().schema();
        this.arity = schema.columns().size();
        this.physicalPositions = schema.physicalPositions();
        this.physical = schema.physicalRowType();
        for (int i = 0; i < physical.size(); i++) {
            JdbcValues.checkSupported(tableName, physical.name(i), physical.type(i));
        }
        this.partitionColumn = partitionColumn(options, schema, physical, tableName);
        this.connector = new JdbcConnector(options, context.job().classLoader());
        this.pool = new JdbcConnectionPool(connector, options.poolSize());
    }

    /** The declared partition column (it must be numeric), else a single-column numeric primary key, else null. */
    private static String partitionColumn(JdbcOptions options, TableSchema schema, RowType physical, String table) {
        if (options.partitionColumn() != null && !options.partitionColumn().isBlank()) {
            String c = options.partitionColumn().trim();
            int i = indexOfIgnoreCase(physical, c);
            if (i < 0 || !isIntegral(physical.type(i))) {
                throw ConfigException.ofOption("scan.partition.column", "JDBC table " + table + ": the partition"
                        + " column (scan.partition.column / idFieldName) '" + c + "' must be an integer column of the"
                        + " table; columns: " + physical.names());
            }
            return physical.name(i);
        }
        if (schema.primaryKey().size() == 1) {
            int i = physical.indexOf(schema.primaryKey().get(0));
            if (i >= 0 && isIntegral(physical.type(i))) {
                return physical.name(i);
            }
        }
        return null;
    }

    private static int indexOfIgnoreCase(RowType t, String name) {
        for (int i = 0; i < t.size(); i++) {
            if (t.name(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isIntegral(DataType t) {
        return switch (t.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> true;
            default -> false;
        };
    }

    @Override
    public boolean supportsPointLookup() {
        return true;
    }

    @Override
    public LookupCacheMode defaultCacheMode() {
        return rsqldbSurface ? LookupCacheMode.FULL : LookupCacheMode.NONE;
    }

    @Override
    public LookupReader openReader(int[] keyColumns) {
        List<String> key = new ArrayList<>();
        DataType[] keyTypes = new DataType[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            int p = Arrays.binarySearch(physicalPositions, keyColumns[k]);
            if (p < 0) {
                throw new ConfigException("JDBC table " + tableName + ": a lookup key must be a column of the"
                        + " database table, not a metadata column");
            }
            key.add(physical.name(p));
            keyTypes[k] = physical.type(p);
        }
        String sql = MySqlStatements.selectByKey(physical.names(), options.fromClause(), key);
        return new JdbcLookupReader(this, sql, keyTypes);
    }

    /** One part of a scan: every row, or the rows with the partition column in [lo, hi) ([lo, hi] for the last). */
    private record Range(long lo, long hi, boolean first, boolean last, boolean all) implements ScanRange {
        @Override
        public String description() {
            return all ? "all rows" : "[" + lo + ", " + hi + (last ? "]" : ")");
        }
    }

    @Override
    public List<ScanRange> planScan(int maxRanges) throws Exception {
        List<ScanRange> all = List.of(new Range(0, 0, true, true, true));
        if (partitionColumn == null || maxRanges <= 1) {
            return all;
        }
        long[] minMax = JdbcRetry.run("cannot read the id range", options, options.lookupMaxRetries(),
                "job=" + job + " table=" + tableName, () -> { }, this::minMax);
        if (minMax == null) {
            return all;
        }
        long lo = minMax[0];
        long hi = minMax[1];
        long span = hi - lo;
        int n = span < 0 || span + 1 < 0 ? maxRanges : (int) Math.min(maxRanges, span + 1);
        long step = span / n + 1;
        List<ScanRange> ranges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long from = lo + i * step;
            long to = from + step;
            boolean last = i == n - 1 || to > hi;
            ranges.add(new Range(from, last ? hi : to, i == 0, last, false));
            if (last) {
                break;
            }
        }
        LOG.info("job={} table={}: scanning {} in {} ranges of {} from {} to {}", job, tableName, options.describe(),
                ranges.size(), partitionColumn, lo, hi);
        return ranges;
    }

    /** MIN and MAX of the partition column, or null for a table without rows. */
    private long[] minMax() throws SQLException {
        try (Connection c = connector.open(true);
             PreparedStatement st = c.prepareStatement(MySqlStatements.minMax(physical.names(), options.fromClause(),
                     partitionColumn));
             ResultSet rs = st.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            long lo = rs.getLong(1);
            if (rs.wasNull()) {
                return null;
            }
            return new long[] {lo, rs.getLong(2)};
        }
    }

    @Override
    public void scan(ScanRange scanRange, RowConsumer out) throws Exception {
        Range range = (Range) scanRange;
        String sql = range.all ? MySqlStatements.selectAll(physical.names(), options.fromClause())
                : MySqlStatements.selectRange(physical.names(), options.fromClause(), partitionColumn, range.first,
                range.last);
        // A scan streams its rows on a connection of its own: a full load must not take the lookups' connections.
        try (Connection c = connector.open(true); PreparedStatement st = c.prepareStatement(sql,
                ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(options.fetchSize());
            if (!range.all) {
                st.setLong(1, range.lo);
                st.setLong(2, range.hi);
            }
            Object[] row = new Object[arity];
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    read(rs, row);
                    out.accept(row);
                }
            }
        } catch (SQLException e) {
            throw JdbcErrors.shown("cannot scan " + range.description() + " of " + options.describe(), e, options);
        }
    }

    /** The current row of {@code rs} into {@code row} (schema order, metadata columns null). */
    void read(ResultSet rs, Object[] row) throws SQLException {
        for (int i = 0; i < physicalPositions.length; i++) {
            row[physicalPositions[i]] = JdbcValues.get(rs, i + 1, physical.type(i));
        }
    }

    int arity() {
        return arity;
    }

    JdbcOptions options() {
        return options;
    }

    JdbcConnectionPool pool() {
        return pool;
    }

    String logContext() {
        return "job=" + job + " table=" + tableName;
    }

    @Override
    public String description() {
        return options.describe();
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "jdbc " + description().toLowerCase(Locale.ROOT);
    }
}
