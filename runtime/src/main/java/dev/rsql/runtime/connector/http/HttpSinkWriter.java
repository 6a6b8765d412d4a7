package dev.rsql.runtime.connector.http;

import dev.rsql.runtime.connector.SinkWriter;
import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.format.RowEncoder;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.RowType;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Sends rows to a webhook: one request per row, or a JSON array of up to {@code sink.batch.max-rows} rows; returns
 * from {@link #flush} (a checkpoint) only when the target took every request or its dead letter is written, so
 * nothing is lost and a slow target slows the job instead of filling memory. 2xx is taken; 408, 429, 5xx, timeouts and
 * connection failures are retried with back-off; other answers, and retries run out, go to the dead-letter file or
 * fail the job. A request after a restart may repeat one the target already took: the idempotency header (the same
 * for the same row) lets it tell.
 */
final class HttpSinkWriter implements SinkWriter {

    private final HttpSinkOptions options;
    private final RowEncoder encoder;
    private final boolean jsonArray;
    private final String contentType;
    private final HttpClient client;
    private final HttpDeadLetters deadLetters;
    private final int idempotencyColumn;
    private final RowType columns;
    private final MessageDigest sha256;
    private final List<byte[]> pending = new ArrayList<>();
    private Object firstKey;
    private long nextRequestNanos;

    /** @param contentType of a request's body (not of a binary CloudEvent's, which says its own) */
    HttpSinkWriter(HttpSinkOptions options, RowEncoder encoder, boolean jsonArray, String contentType, RowType columns,
                   HttpDeadLetters deadLetters) {
        this.options = options;
        this.encoder = encoder;
        this.jsonArray = jsonArray;
        this.contentType = contentType;
        this.columns = columns;
        this.deadLetters = deadLetters;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(options.timeout())
                .build();
        int idx = -1;
        for (int i = 0; options.idempotencyColumn() != null && i < columns.size(); i++) {
            if (columns.name(i).equalsIgnoreCase(options.idempotencyColumn())) {
                idx = i;
            }
        }
        this.idempotencyColumn = idx;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void write(Row row) throws Exception {
        if (pending.isEmpty() && idempotencyColumn >= 0) {
            firstKey = row.get(idempotencyColumn);
        }
        pending.add(encoder.encode(row));
        if (pending.size() >= options.batchRows()) {
            send();
        }
    }

    @Override
    public void flush() throws Exception {
        if (!pending.isEmpty()) {
            send();
        }
    }

    private void send() throws Exception {
        byte[] body = body();
        String key = idempotencyKey(body);
        pending.clear();
        BinaryCloudEvent binary = options.cloudEventsBinary() ? BinaryCloudEvent.of(body) : null;
        if (binary != null && binary.id() != null) {
            key = binary.id();
        }
        long backoffNanos = options.initialBackoff().toNanos();
        String failure;
        int status = 0;
        String response = "";
        for (int attempt = 0; ; attempt++) {
            throttle();
            HttpRequest.Builder request = HttpRequest.newBuilder(options.url()).timeout(options.timeout())
                    .method(options.method(), HttpRequest.BodyPublishers.ofByteArray(binary == null ? body
                            : binary.body()));
            if (binary != null) {
                binary.headers().forEach(request::header);
            } else {
                request.header("Content-Type", contentType);
            }
            options.headers().forEach(request::header);
            if (!options.idempotencyHeader().isEmpty()) {
                request.header(options.idempotencyHeader(), key);
            }
            boolean retry;
            try {
                HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                status = r.statusCode();
                if (status >= 200 && status < 300) {
                    return;
                }
                response = r.body() == null ? "" : r.body();
                retry = status == 408 || status == 429 || status >= 500;
                failure = "the target answered " + status;
            } catch (HttpTimeoutException e) {
                retry = true;
                failure = "no answer within " + options.timeout().toMillis() + " ms";
            } catch (IOException e) {
                retry = true;
                failure = "the request failed: " + e.getMessage();
            }
            if (!retry || attempt >= options.maxRetries()) {
                String reason = failure + (retry ? " (after " + (attempt + 1) + " attempts)" : "");
                if (deadLetters == null) {
                    throw new IOException("table " + options.table() + ": " + options.target() + ": " + reason
                            + (response.isEmpty() ? "" : ": " + preview(response))
                            + " (set 'sink.dead-letter-path' to keep such requests and go on)");
                }
                deadLetters.write(options, status, reason, response, key, body);
                return;
            }
            Thread.sleep(backoffNanos / 1_000_000, (int) (backoffNanos % 1_000_000)); // back off, then try again
            backoffNanos = Math.min(backoffNanos * 2, options.maxBackoff().toNanos());
        }
    }

    /** Rows as one body: the encoded row alone, or a JSON array (or lines) of the batch. */
    private byte[] body() {
        if (pending.size() == 1 && options.batchRows() == 1) {
            return pending.get(0);
        }
        int size = 2 + pending.size();
        for (byte[] p : pending) {
            size += p.length;
        }
        byte[] out = new byte[size];
        int n = 0;
        if (jsonArray) {
            out[n++] = '[';
        }
        for (int i = 0; i < pending.size(); i++) {
            if (i > 0) {
                out[n++] = (byte) (jsonArray ? ',' : '\n');
            }
            System.arraycopy(pending.get(i), 0, out, n, pending.get(i).length);
            n += pending.get(i).length;
        }
        if (jsonArray) {
            out[n++] = ']';
        }
        return Arrays.copyOf(out, n);
    }

    /** The column's value for one row, else a hash of the body: the same row gives the same key after a replay. */
    private String idempotencyKey(byte[] body) {
        if (idempotencyColumn >= 0 && options.batchRows() == 1 && firstKey != null) {
            return ValueText.toText(columns.type(idempotencyColumn), firstKey, false);
        }
        return HexFormat.of().formatHex(sha256.digest(body), 0, 16);
    }

    /** Spaces requests at least 1 / rate apart: a rate limit that slows the task, and so its input. */
    private void throttle() throws InterruptedException {
        if (options.rateLimit() <= 0) {
            return;
        }
        long now = System.nanoTime();
        if (nextRequestNanos > now) {
            long wait = nextRequestNanos - now;
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        nextRequestNanos = Math.max(now, nextRequestNanos) + (long) (1e9 / options.rateLimit());
    }

    private static String preview(String s) {
        String t = s.strip();
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }

    @Override
    public void close() throws Exception {
        flush();
    }
}
