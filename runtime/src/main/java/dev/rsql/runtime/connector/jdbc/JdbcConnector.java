package dev.rsql.runtime.connector.jdbc;

import dev.rsql.runtime.config.ConfigException;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * Opens connections to one table's database. The driver is the bundled MariaDB one (it speaks to MySQL servers too,
 * and is LGPL) unless the table names another ({@code driver} / rsqldb's {@code jdbcDriver}) that the job's class
 * loader can load, e.g. MySQL's own from a jar in {@code ext/}. A MySQL driver name that is not installed falls back
 * to the bundled driver, so rsqldb scripts naming {@code com.mysql.jdbc.Driver} run unchanged.
 */
final class JdbcConnector {

    private static final String MARIADB_DRIVER = "org.mariadb.jdbc.Driver";

    private final JdbcOptions options;
    private final Driver driver;
    private final String url;

    JdbcConnector(JdbcOptions options, ClassLoader classLoader) {
        this.options = options;
        String name = options.driver() == null || options.driver().isBlank() ? MARIADB_DRIVER : options.driver().trim();
        Driver d;
        try {
            d = load(name, classLoader);
        } catch (ReflectiveOperationException | LinkageError e) {
            if (!name.toLowerCase(Locale.ROOT).contains("mysql")) {
                throw ConfigException.ofOption("driver", "JDBC driver class '" + name + "' cannot be loaded: " + e
                        + " (put its jar in ext/)");
            }
            name = MARIADB_DRIVER;
            d = loadBundled();
        }
        this.driver = d;
        this.url = name.equals(MARIADB_DRIVER) ? options.url().forMariaDbDriver() : options.url().raw();
    }

    private static Driver load(String name, ClassLoader classLoader) throws ReflectiveOperationException {
        return (Driver) Class.forName(name, true, classLoader).getDeclaredConstructor().newInstance();
    }

    private static Driver loadBundled() {
        try {
            return load(MARIADB_DRIVER, JdbcConnector.class.getClassLoader());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the bundled MariaDB driver is missing", e);
        }
    }

    /**
     * A new connection; errors are {@linkplain JdbcErrors#shown shown} without secrets. Writers batch in transactions
     * (auto-commit off); readers use auto-commit, so each query sees the table as it is now, not a transaction's
     * snapshot.
     */
    Connection open(boolean autoCommit) throws SQLException {
        Properties p = new Properties();
        if (options.user() != null) {
            p.setProperty("user", options.user());
        }
        if (options.password() != null) {
            p.setProperty("password", options.password());
        }
        try {
            Connection c = driver.connect(url, p);
            if (c == null) {
                throw new SQLException("the driver does not accept the URL", "08001");
            }
            c.setAutoCommit(autoCommit);
            return c;
        } catch (SQLException e) {
            throw JdbcErrors.shown("cannot connect to " + options.describe(), e, options);
        }
    }

    JdbcOptions options() {
        return options;
    }
}
