package dev.rsql.cli.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code rsql sql} in a child JVM with the test class path: with stdin a pipe (the shell's script mode), or behind a
 * pseudo-terminal made by util-linux {@code script} (the interactive shell, JLine on a real tty). Its output is
 * collected by a thread; tests wait for a pattern in it, with a timeout.
 */
final class ShellProcess implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Terminal control sequences (cursor moves, modes) that JLine and the table view write. */
    private static final Pattern CONTROL = Pattern.compile("\u001B(\\[[0-9;?]*[A-Za-z]|[=>])|\r");

    private final Process process;
    private final OutputStream stdin;
    private final StringBuilder output = new StringBuilder();
    /** Where the last match ended: each wait looks at what came after. */
    private int consumed;
    private boolean ended;

    private ShellProcess(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(() -> collect(process.getInputStream()), "shell-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The shell reading statements from a pipe. */
    static ShellProcess piped(Path home, String... args) throws IOException {
        return new ShellProcess(new ProcessBuilder(command(home, args)).redirectErrorStream(true).start());
    }

    /** The interactive shell on a pseudo-terminal of 120 x 40 characters. */
    static ShellProcess onTerminal(Path home, String... args) throws IOException {
        StringBuilder cmd = new StringBuilder("stty cols 120 rows 40; exec");
        for (String part : command(home, args)) {
            cmd.append(" '").append(part.replace("'", "'\\''")).append('\'');
        }
        ProcessBuilder pb = new ProcessBuilder("script", "-q", "-e", "-c", cmd.toString(), "/dev/null")
                .redirectErrorStream(true);
        pb.environment().put("TERM", "xterm");
        return new ShellProcess(pb.start());
    }

    private static List<String> command(Path home, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // A suite started in the background by a non-interactive shell inherits SIGINT ignored, and a JVM that starts
        // with SIGINT ignored never handles it: Ctrl-C and kill -INT would not reach the shell. env execs the JVM, so
        // the process's pid stays the JVM's.
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT", java, "-Xmx256m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "dev.rsql.cli.RsqlCli", "--home", home.toString(), "sql"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private void collect(InputStream in) {
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) > 0) {
                synchronized (this) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended
        }
        synchronized (this) {
            ended = true;
            notifyAll();
        }
    }

    void send(String text) throws IOException {
        stdin.write(text.getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** SIGINT to the shell's JVM (a piped shell: the process is the JVM), as Ctrl-C in a terminal would send it. */
    void interrupt() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS) || kill.exitValue() != 0) {
            fail("kill -INT " + process.pid() + " failed");
        }
    }

    void closeInput() throws IOException {
        stdin.close();
    }

    /** Waits for {@code regex} in the output after the last match (control sequences removed); returns the match. */
    synchronized Matcher await(String regex) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            String text = text();
            Matcher m = pattern.matcher(text);
            if (m.find(Math.min(consumed, text.length()))) {
                consumed = m.end();
                return m;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || ended) {
                fail("no '" + regex + "' within " + TIMEOUT.toSeconds() + " s in the shell's output:\n"
                        + text.substring(Math.min(consumed, text.length())));
            }
            wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 200)));
        }
    }

    /** The output between the last two matches' ends, i.e. what {@code await} has just passed over. */
    synchronized String since(int from) {
        String text = text();
        return text.substring(Math.min(from, text.length()), Math.min(consumed, text.length()));
    }

    synchronized int position() {
        return consumed;
    }

    private String text() {
        return CONTROL.matcher(output).replaceAll("");
    }

    /** Waits for the process to end; returns its exit code. */
    int exitCode() throws InterruptedException {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            fail("the shell did not end; its output:\n" + text());
        }
        return process.exitValue();
    }

    synchronized String output() {
        return text();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
