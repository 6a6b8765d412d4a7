package dev.rsql.runtime.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A private Redis server for tests: Debian's {@code redis-server} ({@code .ci/run} installs it) on a free localhost
 * port, a random password, nothing persisted. {@link #cli} runs {@code redis-cli} against it. Without the package
 * the tests fail, saying so: they never run against a mock.
 */
public final class RedisServer implements AutoCloseable {

    private final int port;
    private final String password;
    private final Process process;
    private final String cli;

    private RedisServer(int port, String password, Process process, String cli) {
        this.port = port;
        this.password = password;
        this.process = process;
        this.cli = cli;
    }

    public static RedisServer start(Path dir) throws IOException {
        String missing = "the redis tests need Debian's redis-server (apt-get install redis-server; .ci/run does)";
        String server = ServerProcesses.find(List.of("/usr/bin/redis-server", "/usr/sbin/redis-server"),
                "redis-server", missing);
        String cli = ServerProcesses.find(List.of("/usr/bin/redis-cli"), "redis-cli", missing);
        Files.createDirectories(dir);
        int port = ServerProcesses.freePort();
        String password = "pw-" + UUID.randomUUID();
        Path log = dir.resolve("redis.log");
        Process p = new ProcessBuilder(server, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--requirepass", password, "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        RedisServer s = new RedisServer(port, password, p, cli);
        try {
            Await.until(() -> "redis accepting commands on port " + port + "; its log:\n" + ServerProcesses.tail(log),
                    Duration.ofSeconds(30), () -> {
                        if (!p.isAlive()) {
                            throw new IllegalStateException("redis-server exited with " + p.exitValue()
                                    + " at start; its log:\n" + ServerProcesses.tail(log));
                        }
                        return "PONG".equals(s.tryCli("PING"));
                    });
        } catch (RuntimeException | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
        return s;
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** Runs one command with redis-cli; its output (a reply per line, raw). */
    public String cli(String... command) {
        String out = tryCli(command);
        if (out == null) {
            throw new IllegalStateException("redis-cli " + String.join(" ", command) + " failed");
        }
        return out;
    }

    private String tryCli(String... command) {
        List<String> cmd = new ArrayList<>(List.of(cli, "-h", "127.0.0.1", "-p", Integer.toString(port), "--raw",
                "--no-auth-warning", "-a", password));
        cmd.addAll(List.of(command));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
