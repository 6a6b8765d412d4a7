package dev.rsql.cli;

import dev.rsql.cli.server.RsqlServer;
import dev.rsql.runtime.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Server mode: one long-lived process runs every script under jobs/ and follows the directory (new, changed and
 * removed scripts), with a REST API under /api on http.port for {@code rsql submit|stop|list}. Runs until SIGTERM or
 * Ctrl-C, which stops every job gracefully.
 */
final class ServerCommand implements CliCommand {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCommand.class);
    private static final CliOption PORT = CliOption.value("--port", "PORT", "HTTP port of the REST API (default:"
            + " http.port, else " + RsqlServer.DEFAULT_PORT + "; 0 picks a free one).");

    @Override
    public CommandUsage usage() {
        return CommandUsage.of("server", "Run every job under jobs/ in one process, following changes to the"
                + " scripts; REST API under /api.", List.of(PORT, SettingsOption.OPTION), null,
                "0:the server was stopped (its jobs stopped gracefully)",
                "1:the server could not start (the port is taken, jobs/ cannot be read)",
                "2:wrong usage (unknown option)");
    }

    @Override
    public int run(EngineHome home, CommandArgs args) throws Exception {
        Map<String, String> config = SettingsOption.over(home, args);
        if (args.value(PORT) != null) {
            long port = args.longValue(PORT, 0);
            if (port < 0 || port > 65_535) {
                throw new UsageException("Invalid value for option '--port': " + port + " is not a port");
            }
            config.put("http.port", String.valueOf(port));
        }
        RsqlServer server;
        try {
            server = RsqlServer.start(home, config, home.extClassLoader(getClass().getClassLoader()));
        } catch (ConfigException | IOException | UncheckedIOException e) {
            System.err.println("ERROR  the server cannot start: " + e.getMessage());
            LOG.error("server cannot start: {}", e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("server stop requested; stopping its jobs");
            server.close();
            stopped.countDown();
        }, "rsql-server-stop"));
        stopped.await();
        return 0;
    }
}
