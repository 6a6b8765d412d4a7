package dev.rsql.cli.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The process's one HTTP port ({@code http.port}; off when unset): the REST API of server mode, {@code /metrics} and
 * the status page each register their handlers under their own path. Requests are served by two daemon threads, never
 * by a task's thread.
 */
public final class HttpEndpoint implements AutoCloseable {

    /** {@code http.host} when unset: only this machine's clients reach the port. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoint(HttpServer server) {
        this.server = server;
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "rsql-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
    }

    /**
     * The endpoint the settings ask for, bound but not started, or empty when {@code http.port} is unset. Port 0 binds
     * a free port ({@link #port()} tells which).
     */
    public static Optional<HttpEndpoint> fromSettings(Options settings) {
        String port = settings.get("http.port");
        if (port == null || port.isBlank()) {
            return Optional.empty();
        }
        int number = settings.getInt(0, "http.port");
        if (number < 0 || number > 65535) {
            throw new ConfigException("http.port must be between 0 and 65535, got " + number);
        }
        return Optional.of(bind(settings.getOrDefault(DEFAULT_HOST, "http.host"), number));
    }

    public static HttpEndpoint bind(String host, int port) {
        try {
            return new HttpEndpoint(HttpServer.create(new InetSocketAddress(host, port), 0));
        } catch (IOException e) {
            throw new ConfigException("cannot listen on http://" + host + ":" + port + ": " + e.getMessage());
        }
    }

    /** Serves requests whose path starts with {@code pathPrefix}; the longest matching prefix wins. */
    public HttpEndpoint handle(String pathPrefix, HttpHandler handler) {
        server.createContext(pathPrefix, handler);
        return this;
    }

    /**
     * Answers a request for a read-only resource: {@code body} to a GET, its headers only to a HEAD, 405 to any other
     * method. Closes the exchange.
     */
    public static void sendReadOnly(HttpExchange exchange, int status, String contentType, byte[] body)
            throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", contentType);
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    public void start() {
        server.start();
        LOG.info("serving {}/", url());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Where clients reach the endpoint, e.g. {@code http://127.0.0.1:8081}. */
    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + port();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
