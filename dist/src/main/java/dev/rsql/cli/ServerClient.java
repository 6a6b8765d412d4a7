package dev.rsql.cli;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import dev.rsql.cli.http.HttpEndpoint;
import dev.rsql.cli.server.RsqlServer;
import dev.rsql.runtime.config.Options;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;

/**
 * The REST API of a running server, for {@code rsql submit|stop|list}: the URL given with {@code --server}, else the
 * one the server of this installation published in {@code run/server.json}, else {@code http.host}/{@code http.port}
 * of {@code conf/rsql.conf} (port default {@value RsqlServer#DEFAULT_PORT}).
 */
final class ServerClient {

    /** The server's answer: HTTP status and JSON body. */
    record Reply(int status, Object body) {
        JSONObject object() {
            return body instanceof JSONObject ? (JSONObject) body : new JSONObject();
        }

        String error() {
            return object().getString("error");
        }
    }

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ServerClient(String base) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    static ServerClient of(EngineHome home, String server) throws IOException {
        if (server != null) {
            return new ServerClient(server);
        }
        if (Files.isRegularFile(RsqlServer.serverFile(home))) {
            JSONObject o = JSON.parseObject(Files.readString(RsqlServer.serverFile(home), StandardCharsets.UTF_8));
            return new ServerClient(o.getString("url"));
        }
        Options conf = new Options(RsqlServer.withDefaultPort(home.loadConfig()));
        return new ServerClient("http://" + conf.getOrDefault(HttpEndpoint.DEFAULT_HOST, "http.host") + ":" + conf.get("http.port"));
    }

    String url() {
        return base;
    }

    Reply get(String path) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    Reply put(String path, String body) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.ofString(body,
                StandardCharsets.UTF_8)));
    }

    Reply post(String path, String body) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body,
                StandardCharsets.UTF_8)));
    }

    static String jobPath(String name) {
        StringBuilder sb = new StringBuilder("/api/jobs");
        for (String part : name.split("/")) {
            sb.append('/').append(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return sb.toString();
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }

    private Reply send(HttpRequest.Builder request) throws IOException {
        try {
            HttpResponse<String> r = http.send(request.timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            String text = r.body();
            return new Reply(r.statusCode(), text == null || text.isBlank() ? null : JSON.parse(text));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.net.ConnectException e) {
            throw new IOException("no server at " + base + " (start one with bin/rsql server or bin/start.sh"
                    + " --server)", e);
        }
    }
}
