package dev.rsql.runtime.connector.jdbc;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;

/**
 * Runs a database action again after a transient error ({@link JdbcErrors}), with exponential backoff (from
 * {@code sink.retry-backoff}, at most 10 s between attempts): the action itself reconnects. Other errors, and the last
 * transient one, go to the caller without secrets.
 */
final class JdbcRetry {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcRetry.class);
    private static final long MAX_BACKOFF_MS = 10_000;

    interface Action<T> {
        T run() throws SQLException;
    }

    /** Called after a failed attempt, before the next: e.g. to drop a broken connection. */
    interface Reset {
        void afterFailure();
    }

    private JdbcRetry() {
    }

    static <T> T run(String what, JdbcOptions options, int maxRetries, String logContext, Reset reset,
                     Action<T> action) throws SQLException, InterruptedException {
        Duration backoff = options.retryBackoff();
        for (int attempt = 0; ; attempt++) {
            try {
                return action.run();
            } catch (SQLException e) {
                reset.afterFailure();
                SQLException shown = JdbcErrors.shown(what + " (" + options.describe() + ")", e, options);
                if (!JdbcErrors.isTransient(e) || attempt >= maxRetries) {
                    throw shown;
                }
                long wait = Math.min(MAX_BACKOFF_MS, backoff.toMillis() << Math.min(attempt, 20));
                LOG.warn("{}: attempt {} of {} failed, retrying in {} ms: {}", logContext, attempt + 1, maxRetries + 1,
                        wait, shown.getMessage());
                Thread.sleep(wait);
            }
        }
    }
}
