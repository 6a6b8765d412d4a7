package dev.rsql.runtime.connector.jdbc;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Which database errors go away by themselves: a lost or refused connection (SQLSTATE class 08, a killed connection,
 * "server has gone away", a server shutting down), a deadlock, a lock wait timeout, a serialization failure. Those
 * are retried by the sink and the lookups; when the retries run out the job's restart policy
 * ({@link dev.rsql.runtime.exec.restart.TransientFailures}) still sees them as transient. Anything else (a missing
 * table, a bad column, access denied, a duplicate key on an append, a value too long) is not.
 */
public final class JdbcErrors {

    /**
     * MySQL/MariaDB error codes: 1040 too many connections, 1053 server shutdown, 1205 lock wait timeout, 1213
     * deadlock, 1317 query interrupted, 1927 connection killed, 2002/2003 cannot connect, 2006 server gone away, 2013
     * lost connection during query, 3024/1969 statement timeout.
     */
    private static final Set<Integer> TRANSIENT_CODES = Set.of(1040, 1053, 1205, 1213, 1317, 1927, 2002, 2003, 2006,
            2013, 3024, 1969);

    private JdbcErrors() {
    }

    public static boolean isTransient(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (isTransientOne(s)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isTransientOne(SQLException e) {
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
            return true;
        }
        String state = e.getSQLState();
        if (state != null && (state.startsWith("08") || state.equals("40001") || state.equals("70100"))) {
            return true;
        }
        if (TRANSIENT_CODES.contains(e.getErrorCode())) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null && t != e; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The error as it may travel further (into logs, the job's status, the user's terminal): {@code what} happened,
     * the driver's message with every secret of the table masked, its SQLSTATE and code, and no cause (a driver's
     * own exceptions may carry the connection string). Transient errors stay recognisable as such.
     */
    static SQLException shown(String what, SQLException e, JdbcOptions options) {
        String message = what + ": " + options.redact(String.valueOf(e.getMessage()))
                + (e.getSQLState() != null ? " [SQLSTATE " + e.getSQLState() + ", error " + e.getErrorCode() + "]"
                : "");
        SQLException out = isTransient(e)
                ? new SQLTransientException(message, e.getSQLState(), e.getErrorCode())
                : new SQLException(message, e.getSQLState(), e.getErrorCode());
        out.setStackTrace(e.getStackTrace());
        return out;
    }
}
