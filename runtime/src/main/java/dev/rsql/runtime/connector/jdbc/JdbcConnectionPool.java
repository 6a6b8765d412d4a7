package dev.rsql.runtime.connector.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * A few connections (option {@code lookup.connection-pool-size}, default 4) shared by the lookup readers of one
 * dimension table, each with its prepared statements. A borrower that finds them all in use waits; a connection that
 * failed is closed instead of returned.
 */
final class JdbcConnectionPool implements AutoCloseable {

    /** A pooled connection and the statements prepared on it, by SQL text. */
    static final class Pooled {
        final Connection connection;
        private final Map<String, PreparedStatement> statements = new HashMap<>();

        Pooled(Connection connection) {
            this.connection = connection;
        }

        PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement st = statements.get(sql);
            if (st == null) {
                st = connection.prepareStatement(sql);
                statements.put(sql, st);
            }
            return st;
        }

        void close() {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // broken already
            }
        }
    }

    private final JdbcConnector connector;
    private final Semaphore permits;
    private final ArrayDeque<Pooled> idle = new ArrayDeque<>();
    private boolean closed;

    JdbcConnectionPool(JdbcConnector connector, int size) {
        this.connector = connector;
        this.permits = new Semaphore(Math.max(1, size));
    }

    Pooled borrow() throws SQLException, InterruptedException {
        permits.acquire();
        try {
            synchronized (this) {
                if (closed) {
                    throw new SQLException("the lookup connections of " + connector.options().describe()
                            + " are closed");
                }
                Pooled p = idle.pollFirst();
                if (p != null) {
                    return p;
                }
            }
            return new Pooled(connector.open(true));
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** Gives the connection back, or closes it when it {@code failed}. */
    void release(Pooled p, boolean failed) {
        boolean keep;
        synchronized (this) {
            keep = !failed && !closed;
            if (keep) {
                idle.addFirst(p);
            }
        }
        if (!keep) {
            p.close();
        }
        permits.release();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            idle.forEach(Pooled::close);
            idle.clear();
        }
    }
}
