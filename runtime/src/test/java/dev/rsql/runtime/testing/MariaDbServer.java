package dev.rsql.runtime.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A private MariaDB server for tests: a fresh data directory under the test's directory, a free localhost port, a
 * user {@code rsql} with a random password and a database {@code test}. It is the {@code mariadbd} of Debian's
 * {@code mariadb-server} package ({@code .ci/run} installs it); without it the test fails, saying so: these tests
 * never run against a mock and are never skipped.
 */
public final class MariaDbServer implements AutoCloseable {

    public static final String USER = "rsql";
    public static final String DATABASE = "test";

    private static final List<String> SERVER_PATHS = List.of("/usr/sbin/mariadbd", "/usr/bin/mariadbd",
            "/usr/sbin/mysqld", "/usr/local/bin/mariadbd");
    private static final List<String> INSTALL_PATHS = List.of("/usr/bin/mariadb-install-db",
            "/usr/bin/mysql_install_db", "/usr/local/bin/mariadb-install-db");

    private final Path dir;
    private final int port;
    private final String password;
    private final Process process;

    private MariaDbServer(Path dir, int port, String password, Process process) {
        this.dir = dir;
        this.port = port;
        this.password = password;
        this.process = process;
    }

    /** Installs a data directory under {@code dir}, starts the server and waits until it accepts the test user. */
    public static MariaDbServer start(Path dir) throws IOException, InterruptedException {
        String server = find(SERVER_PATHS, "mariadbd");
        String install = find(INSTALL_PATHS, "mariadb-install-db");
        Path data = dir.resolve("data");
        Files.createDirectories(dir);
        String asRoot = "root".equals(System.getProperty("user.name")) ? "--user=root" : null;
        List<String> installCmd = new ArrayList<>(List.of(install, "--no-defaults", "--datadir=" + data,
                "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (asRoot != null) {
            installCmd.add(asRoot);
        }
        run(installCmd, dir.resolve("install.log"));

        String password = "pw-" + UUID.randomUUID();
        Path init = dir.resolve("init.sql");
        Files.writeString(init, "CREATE DATABASE IF NOT EXISTS " + DATABASE + ";\n"
                + "CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + password + "';\n"
                + "CREATE USER IF NOT EXISTS '" + USER + "'@'localhost' IDENTIFIED BY '" + password + "';\n"
                + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%';\n"
                + "GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'localhost';\n", StandardCharsets.UTF_8);
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(server, "--no-defaults", "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mysqld.sock"),
                "--pid-file=" + dir.resolve("mysqld.pid"), "--init-file=" + init, "--skip-name-resolve",
                "--innodb-buffer-pool-size=64M", "--innodb-log-file-size=32M", "--max-connections=200",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_bin"));
        if (asRoot != null) {
            cmd.add(asRoot);
        }
        Path log = dir.resolve("server.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        MariaDbServer s = new MariaDbServer(dir, port, password, p);
        String[] lastError = {"none yet"};
        try {
            Await.until(() -> "MariaDB accepting connections on port " + port + " (last error: " + lastError[0]
                    + "); its log:\n" + tail(log), Duration.ofSeconds(60), () -> {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("MariaDB (" + server + ") exited with " + p.exitValue()
                                    + " at start; its log " + log + ":\n" + tail(log));
                        }
                        try (Connection c = s.connect()) {
                            return true;
                        } catch (SQLException e) {
                            lastError[0] = e.getMessage();
                            return false;
                        }
                    });
        } catch (RuntimeException | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
        return s;
    }

    private static String find(List<String> paths, String name) {
        return ServerProcesses.find(paths, name, "the JDBC tests need a MariaDB server: install Debian's package "
                + "(apt-get install mariadb-server; .ci/run does)");
    }

    private static void run(List<String> cmd, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd.get(0) + " did not finish within 120 s; its log:\n" + tail(log));
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd + " failed with " + p.exitValue() + ":\n" + tail(log));
        }
    }

    private static int freePort() throws IOException {
        return ServerProcesses.freePort();
    }

    private static String tail(Path log) {
        return ServerProcesses.tail(log);
    }

    public int port() {
        return port;
    }

    /** A MySQL URL of the test database, as users write them. */
    public String url() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return password;
    }

    public Path directory() {
        return dir;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE, USER, password);
    }

    /** Runs statements, each in its own round trip. */
    public void execute(String... sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** The rows of a query, each as its columns' text joined by {@code |} (NULL as {@code null}). */
    public List<String> query(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(b.toString());
            }
        }
        return rows;
    }

    /** Kills every connection of the test user but the one asking: what a database restart does to a client. */
    public int killClientConnections() throws SQLException {
        int killed = 0;
        try (Connection c = connect(); Statement st = c.createStatement()) {
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id FROM information_schema.processlist WHERE user = '" + USER
                    + "' AND id <> CONNECTION_ID()")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (long id : ids) {
                try {
                    st.execute("KILL CONNECTION " + id);
                    killed++;
                } catch (SQLException gone) {
                    // ended by itself meanwhile
                }
            }
        }
        return killed;
    }

    /** Server status counters, e.g. {@code Com_insert}. */
    public Map<String, Long> status(String like) throws SQLException {
        Map<String, Long> m = new TreeMap<>();
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE '" + like + "'")) {
            while (rs.next()) {
                try {
                    m.put(rs.getString(1), Long.parseLong(rs.getString(2)));
                } catch (NumberFormatException notCounter) {
                    // not a number
                }
            }
        }
        return m;
    }

    /** Stops the server (SIGTERM: a clean shutdown) and waits for it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
