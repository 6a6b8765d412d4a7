package dev.rsql.cli;

import dev.rsql.cli.server.RsqlServer;
import dev.rsql.runtime.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Server mode: one long-lived process runs every script under jobs/ and follows the directory (new, changed and
 * removed scripts), with a REST API under /api on http.port for {@code rsql submit|stop|list}. Runs until SIGTERM or
 * Ctrl-C, which stops every job gracefully.
 */
@Command(name = "server", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the server was stopped (its jobs stopped gracefully)",
                "1:the server could not start (the port is taken, jobs/ cannot be read)",
                "2:wrong usage (unknown option)"},
        description = "Run every job under jobs/ in one process, following changes to the scripts;"
                + " REST API under /api.")
final class ServerCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCommand.class);

    @ParentCommand
    private RsqlCli cli;

    @Option(names = "--port", description = "HTTP port of the REST API (default: http.port, else "
            + RsqlServer.DEFAULT_PORT + "; 0 picks a free one).")
    private Integer port;

    @Mixin
    private SettingsOption settings;

    @Override
    public Integer call() throws Exception {
        EngineHome home = cli.engineHome();
        Map<String, String> config = settings.over(home);
        if (port != null) {
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
