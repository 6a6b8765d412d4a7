package dev.rsql.e2e;

import dev.rsql.broker.LocalRocketMq;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LocalRocketMq} in a child JVM, on fixed ports and a data directory that outlive the process: the test can
 * stop it (SIGTERM: the broker flushes its store and offsets) and start it again on the same ports with the same
 * messages and offsets, or freeze it (SIGSTOP) and let it go on (SIGCONT). The test talks to it through the child's
 * standard input and output: {@code topic NAME QUEUES} creates a topic, {@code open TOPIC...} counts open half
 * messages. The child exits when its standard input closes, so a dying test leaves no broker behind.
 */
final class BrokerProcess implements TestBroker, AutoCloseable {

    private static final String REPLY = "@@ ";
    private static final long START_TIMEOUT_SECONDS = 90;

    private final Path dir;
    private final int namesrvPort;
    private final int brokerPort;
    private final List<Path> logs = new ArrayList<>();
    private Process process;
    private BufferedReader out;
    private BufferedWriter in;

    private BrokerProcess(Path dir, int namesrvPort, int brokerPort) {
        this.dir = dir;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
    }

    /** Starts a broker on free ports with its data under {@code dir}. */
    static BrokerProcess start(Path dir) throws IOException {
        int[] ports = freePorts();
        BrokerProcess b = new BrokerProcess(dir, ports[0], ports[1]);
        b.start();
        return b;
    }

    /** Starts the process (again: the same ports and data); returns once the broker is registered and serves. */
    synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the broker is running already");
        }
        Files.createDirectories(dir);
        Path log = dir.resolve("process-" + (logs.size() + 1) + ".log");
        logs.add(log);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                dir.resolve("data").toString(), Integer.toString(namesrvPort), Integer.toString(brokerPort))
                .redirectError(log.toFile()).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        String ready = reply(START_TIMEOUT_SECONDS);
        if (!ready.startsWith("ready")) {
            throw new IllegalStateException("the broker did not start: " + ready + "; its log: " + log);
        }
    }

    /** SIGTERM, and waits until the process is gone (the broker flushed its store and released its ports). */
    synchronized void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            throw new AssertionError("the broker did not stop within 90 s of SIGTERM");
        }
    }

    /** Makes the broker serve again whatever an outage left it in: continued if frozen, started if stopped. */
    synchronized void ensureServing() throws IOException, InterruptedException {
        if (process.isAlive()) {
            signal("CONT");
        } else {
            start();
        }
    }

    /** SIGSTOP: the process stays, its sockets stay open, nothing answers. */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze()}. */
    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    @Override
    public String nameServerAddress() {
        return "127.0.0.1:" + namesrvPort;
    }

    @Override
    public synchronized void createTopic(String topic, int queues) {
        String r = request("topic " + topic + " " + queues);
        if (!r.equals("ok")) {
            throw new IllegalStateException("creating topic " + topic + ": " + r);
        }
    }

    @Override
    public synchronized long openTransactions(String... topics) {
        String r = request("open " + String.join(" ", topics));
        return Long.parseLong(r);
    }

    private String request(String line) {
        try {
            in.write(line);
            in.newLine();
            in.flush();
            return reply(60);
        } catch (IOException e) {
            throw new UncheckedIOException("broker request '" + line + "'", e);
        }
    }

    /** The next reply line; other output (logging) is skipped. */
    private String reply(long timeoutSeconds) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        // A blocking read: the child answers every request or dies (end of stream), and the test's own timeout
        // bounds the rest.
        for (String l = out.readLine(); l != null; l = out.readLine()) {
            if (l.startsWith(REPLY)) {
                return l.substring(REPLY.length());
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        throw new IllegalStateException("no answer from the broker process (exit status "
                + (process.isAlive() ? "running" : process.exitValue()) + "); its log: " + logs.get(logs.size() - 1));
    }

    /** Kills the process if it still runs (continuing it first if frozen). */
    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        try {
            if (process.isAlive()) {
                signal("CONT");
            }
        } catch (IOException | InterruptedException e) {
            // killing follows anyway
        }
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A name server port and a broker port, both free, with the broker's neighbours (port - 2, port + 1) free too.
     * Ports are drawn at random from a range below the usual ephemeral ports, so that a client's own connections do
     * not take them while the broker is down.
     */
    private static int[] freePorts() {
        for (int tries = 0; tries < 200; tries++) {
            int namesrv = ThreadLocalRandom.current().nextInt(20_000, 30_000);
            int broker = namesrv + 10;
            if (free(namesrv) && free(broker - 2) && free(broker) && free(broker + 1)) {
                return new int[]{namesrv, broker};
            }
        }
        throw new IllegalStateException("no free ports for a broker");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The child: {@code Main DATA_DIR NAMESRV_PORT BROKER_PORT}. */
    public static final class Main {
        public static void main(String[] args) throws Exception {
            // Standard output carries the replies only: logging goes to standard error (the log file), and a pipe
            // that nobody reads between requests cannot block the broker.
            PrintStream replies = System.out;
            System.setOut(System.err);
            LocalRocketMq mq = LocalRocketMq.start(Path.of(args[0]), Integer.parseInt(args[1]),
                    Integer.parseInt(args[2]));
            Runtime.getRuntime().addShutdownHook(new Thread(mq::close, "broker-shutdown"));
            replies.println(REPLY + "ready " + mq.nameServerAddress());
            replies.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                String[] w = line.trim().split("\\s+");
                String answer;
                try {
                    switch (w[0]) {
                        case "topic":
                            mq.createTopic(w[1], Integer.parseInt(w[2]));
                            answer = "ok";
                            break;
                        case "open":
                            answer = Long.toString(TestBroker.openTransactions(mq,
                                    Arrays.copyOfRange(w, 1, w.length)));
                            break;
                        default:
                            answer = "unknown command " + w[0];
                    }
                } catch (RuntimeException e) {
                    answer = "error " + e;
                }
                replies.println(REPLY + answer);
                replies.flush();
            }
            System.exit(0);
        }
    }
}
