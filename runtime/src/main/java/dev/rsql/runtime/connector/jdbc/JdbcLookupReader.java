package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.connector.LookupReader;
import dev.rsql.runtime.types.DataType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Point lookups of one task: a prepared {@code SELECT ... WHERE k1 = ? AND ...} on a pooled connection, run again on a
 * new connection after a transient error ({@code lookup.max-retries}). Asynchronous lookups run these on the engine's
 * executor; the pool bounds how many reach the database at once.
 */
final class JdbcLookupReader implements LookupReader {

    private final JdbcLookupSource source;
    private final String sql;
    private final DataType[] keyTypes;

    JdbcLookupReader(JdbcLookupSource source, String sql, DataType[] keyTypes) {
        this.source = source;
        this.sql = sql;
        this.keyTypes = keyTypes;
    }

    @Override
    public List<Object[]> lookup(Object[] key) throws Exception {
        return JdbcRetry.run("cannot look up a key", source.options(), source.options().lookupMaxRetries(),
                source.logContext(), () -> { }, () -> query(key));
    }

    private List<Object[]> query(Object[] key) throws SQLException {
        JdbcConnectionPool.Pooled p;
        try {
            p = source.pool().borrow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a lookup connection", e);
        }
        boolean failed = true;
        try {
            PreparedStatement st = p.prepare(sql);
            for (int i = 0; i < key.length; i++) {
                JdbcValues.set(st, i + 1, keyTypes[i], key[i]);
            }
            List<Object[]> rows = new ArrayList<>(1);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Object[] row = new Object[source.arity()];
                    source.read(rs, row);
                    rows.add(row);
                }
            }
            failed = false;
            return rows;
        } finally {
            source.pool().release(p, failed);
        }
    }

    @Override
    public void close() {
    }
}
