package dev.rsql.cli.server;

import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.EngineHome;
import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.http.MetricsHandler;
import dev.rsql.cli.http.ProcessJobs;
import dev.rsql.cli.web.StatusPage;
import dev.rsql.runtime.config.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Server mode's process: the {@link JobServer} over {@code jobs/}; its REST API, metrics and status page on the
 * process's HTTP endpoint ({@code http.port}, default {@value #DEFAULT_PORT} in server mode); each job's own log; and
 * {@code run/server.json} telling {@code rsql submit|stop|list} where the server listens.
 */
public final class RsqlServer implements AutoCloseable {

    public static final int DEFAULT_PORT = 8081;
    private static final Logger LOG = LoggerFactory.getLogger(RsqlServer.class);

    private final EngineHome home;
    private final HttpEndpoint endpoint;
    private final JobServer jobs;
    private final JobLogs logs;
    private final ProcessJobs processJobs;
    private final StatusPage statusPage;

    private RsqlServer(EngineHome home, HttpEndpoint endpoint, JobServer jobs, JobLogs logs, ProcessJobs processJobs) {
        this.home = home;
        this.statusPage = new StatusPage(processJobs);
        this.endpoint = endpoint;
        this.jobs = jobs;
        this.logs = logs;
        this.processJobs = processJobs;
    }

    /** The settings with server mode's default port. */
    public static Map<String, String> withDefaultPort(Map<String, String> settings) {
        Map<String, String> s = new LinkedHashMap<>(settings);
        String port = s.get("http.port");
        if (port == null || port.isBlank()) {
            s.put("http.port", String.valueOf(DEFAULT_PORT));
        }
        return s;
    }

    /** Binds the port, starts the scripts under jobs/ and follows the directory. */
    public static RsqlServer start(EngineHome home, Map<String, String> settings, ClassLoader classLoader)
            throws IOException {
        Map<String, String> config = withDefaultPort(settings);
        HttpEndpoint endpoint = HttpEndpoint.fromSettings(new Options(config)).orElseThrow();
        JobLogs logs = JobLogs.attach(Path.of(config.getOrDefault("log.dir", home.home().resolve("log").toString())));
        ProcessJobs processJobs = new ProcessJobs();
        JobServer jobs = new JobServer(home, config, classLoader, processJobs);
        RsqlServer server = new RsqlServer(home, endpoint, jobs, logs, processJobs);
        endpoint.handle(ServerApi.PREFIX, new ServerApi(jobs));
        endpoint.handle(MetricsHandler.PATH, new MetricsHandler(processJobs));
        server.statusPage.registerOn(endpoint);
        endpoint.start();
        jobs.start();
        server.writeServerFile();
        return server;
    }

    /** Where {@code rsql submit|stop|list} find a running server of this installation. */
    public static Path serverFile(EngineHome home) {
        return home.runDir().resolve("server.json");
    }

    private void writeServerFile() throws IOException {
        JSONObject o = new JSONObject();
        o.put("url", endpoint.url());
        o.put("pid", ProcessHandle.current().pid());
        Files.createDirectories(home.runDir());
        Files.writeString(serverFile(home), o.toJSONString(), StandardCharsets.UTF_8);
        LOG.info("server ready at {}/api", endpoint.url());
    }

    public int port() {
        return endpoint.port();
    }

    /** The jobs this process runs. */
    public ProcessJobs processJobs() {
        return processJobs;
    }

    /** Stops every job gracefully, then the port. */
    @Override
    public void close() {
        jobs.close();
        endpoint.close();
        statusPage.close();
        if (logs != null) {
            logs.detach();
        }
        try {
            Files.deleteIfExists(serverFile(home));
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", serverFile(home), e.getMessage());
        }
    }
}
