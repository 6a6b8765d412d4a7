package dev.rsql.runtime.connector.http;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import dev.rsql.runtime.connector.ConnectorContext;
import dev.rsql.runtime.connector.file.AllowedPaths;
import dev.rsql.runtime.format.FormatRegistry;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The options of an {@code http} sink (a webhook target): {@code url} (required, http or https), {@code method}
 * (POST or PUT), {@code headers.<Name>} (each a request header; values of secret-looking names and of
 * {@code Authorization} are never shown), {@code sink.batch.max-rows} (1: one request per row; more: a JSON array
 * of rows per request), {@code timeout} (per request, 10 s), {@code sink.max-retries} (5) with back-off from
 * {@code sink.retry.initial-backoff} (200 ms) doubling to {@code sink.retry.max-backoff} (10 s), {@code sink.rate-limit}
 * (requests per second per task, 0 = none), {@code sink.idempotency-key.header} ({@code Idempotency-Key}, empty for
 * none) with the value of column {@code sink.idempotency-key.column} or else a hash of the request body (a CloudEvent
 * in binary mode: its id), {@code cloudevents.mode} ({@link #cloudEventsBinary}), and
 * {@code sink.dead-letter-path} (a JSON-lines file for requests the target refused or that ran out of retries; without
 * it such a request fails the job).
 */
record HttpSinkOptions(String table, URI url, String method, Map<String, String> headers, int batchRows,
                       Duration timeout, int maxRetries, Duration initialBackoff, Duration maxBackoff, double rateLimit,
                       String idempotencyHeader, String idempotencyColumn, Path deadLetterPath,
                       boolean cloudEventsBinary) {

    static HttpSinkOptions of(ConnectorContext context) {
        Options o = context.options();
        String table = context.table().name();
        String urlText = o.require("url");
        URI url;
        try {
            url = new URI(urlText.trim());
        } catch (URISyntaxException e) {
            throw new ConfigException("url", "table " + table + ": option 'url' is not a URL: " + e.getReason(), null);
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new ConfigException("url", "table " + table + ": option 'url' must be an http:// or https:// URL"
                    + " with a host, got '" + o.shown("url") + "'", null);
        }
        String method = o.getOrDefault("POST", "method", "request.method").trim().toUpperCase(Locale.ROOT);
        if (!method.equals("POST") && !method.equals("PUT")) {
            throw new ConfigException("method", "table " + table + ": option 'method' must be POST or PUT, got '"
                    + method + "'", null);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : o.asMap().entrySet()) {
            if (e.getKey().startsWith("headers.")) {
                String name = e.getKey().substring("headers.".length());
                checkHeader(table, name, e.getValue(), o.isSecret(e.getKey()));
                headers.put(name, e.getValue());
                o.markUsed(e.getKey());
            }
        }
        int batch = o.getInt(1, "sink.batch.max-rows", "batchSize");
        int retries = o.getInt(5, "sink.max-retries", "maxRetryTimes");
        double rate = o.getDouble(0, "sink.rate-limit");
        if (batch < 1 || retries < 0 || rate < 0) {
            throw new ConfigException("table " + table + ": options 'sink.batch.max-rows' (at least 1), "
                    + "'sink.max-retries' and 'sink.rate-limit' (not negative) are out of range");
        }
        String deadLetters = o.get("sink.dead-letter-path");
        Path dlq = null;
        if (deadLetters != null) {
            dlq = Path.of(deadLetters.trim()).toAbsolutePath();
            AllowedPaths.of(context.job().config()).check("dead-letter file", table, dlq);
        }
        String column = o.get("sink.idempotency-key.column");
        if (column != null && context.table().schema().physicalRowType().names().stream()
                .noneMatch(n -> n.equalsIgnoreCase(column))) {
            throw new ConfigException("sink.idempotency-key.column", "table " + table
                    + ": option 'sink.idempotency-key.column' names no column: '" + column + "'", null);
        }
        boolean binary = cloudEventsBinary(o, table, batch);
        return new HttpSinkOptions(table, url, method, headers, batch,
                o.getDuration(Duration.ofSeconds(10), "timeout", "sink.timeout"), retries,
                o.getDuration(Duration.ofMillis(200), "sink.retry.initial-backoff"),
                o.getDuration(Duration.ofSeconds(10), "sink.retry.max-backoff"), rate,
                o.getOrDefault("Idempotency-Key", "sink.idempotency-key.header").trim(), column, dlq, binary);
    }

    /**
     * With format {@code cloudevents}, option {@code cloudevents.mode}: {@code structured} (default, the event as JSON)
     * or {@code binary} (HTTP binding: attributes as {@code ce-} headers, the data as the body), one event per request.
     */
    private static boolean cloudEventsBinary(Options o, String table, int batch) {
        if (!"cloudevents".equalsIgnoreCase(FormatRegistry.formatName(o, "json").trim())) {
            return false;
        }
        String mode = o.getOrDefault("structured", "cloudevents.mode").trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("structured") && !mode.equals("binary")) {
            throw new ConfigException("cloudevents.mode", "table " + table + ": option 'cloudevents.mode' must be "
                    + "structured or binary, got '" + mode + "'", null);
        }
        if (mode.equals("binary") && batch > 1) {
            throw new ConfigException("sink.batch.max-rows", "table " + table + ": CloudEvents in binary mode go one "
                    + "per request: 'sink.batch.max-rows' must be 1", null);
        }
        return mode.equals("binary");
    }

    /** HTTP header names are tokens and values visible ASCII (RFC 9110): others would fail at the first row. */
    private static void checkHeader(String table, String name, String value, boolean secret) {
        boolean nameOk = !name.isEmpty()
                && name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0);
        boolean valueOk = value.chars().allMatch(c -> c == '\t' || (c >= 32 && c < 127));
        if (!nameOk || !valueOk) {
            throw new ConfigException("headers." + name, "table " + table + ": option 'headers." + name + "': "
                    + (nameOk ? "the value" + (secret ? "" : " '" + value + "'") + " has characters an HTTP header "
                    + "cannot carry (only ASCII); percent-encode or Base64 it" : "'" + name + "' is not an HTTP "
                    + "header name"), null);
        }
    }

    /** The target as logs and errors show it: scheme, host, port and path, no query (it may carry a token). */
    String target() {
        return method + " " + url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
