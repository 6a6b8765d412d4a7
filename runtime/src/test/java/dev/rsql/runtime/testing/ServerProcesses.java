package dev.rsql.runtime.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the fixtures starting a real server process share: finding its program, a free port, its log's tail. */
final class ServerProcesses {

    private ServerProcesses() {
    }

    /**
     * The first executable of {@code paths}, else {@code name} on the PATH.
     *
     * @param missing the error when there is none: which tests need it and how to install it
     */
    static String find(List<String> paths, String name, String missing) {
        for (String p : paths) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name).toString();
            }
        }
        throw new IllegalStateException(missing + " ('" + name + "' is not installed; looked in " + paths
                + " and PATH)");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The last 30 lines of a log, for errors. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
