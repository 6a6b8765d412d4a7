package dev.rsql.runtime.connector.http;

import dev.rsql.runtime.format.json.JsonValueWriter;
import dev.rsql.runtime.format.json.ValueText;
import dev.rsql.runtime.types.DataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests an {@code http} sink could not deliver, one JSON line each in {@code sink.dead-letter-path}: time,
 * table, target, status (0 without an answer), reason, the start of the answer, the idempotency key and the body.
 * Shared by the tasks of a sink; each letter is on disk before the checkpoint that follows it completes.
 */
final class HttpDeadLetters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpDeadLetters.class);
    private static final DataType STRING = DataType.string();

    private final Path path;
    private final String job;
    private final OutputStream out;
    private final AtomicLong written = new AtomicLong();

    HttpDeadLetters(Path path, String job) throws IOException {
        this.path = path;
        this.job = job;
        Files.createDirectories(path.toAbsolutePath().getParent());
        this.out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    synchronized void write(HttpSinkOptions options, int status, String reason, String response, String key,
                            byte[] body) throws IOException {
        String answer = response.length() > 1000 ? response.substring(0, 1000) : response;
        String line = "{\"time\":" + json(ValueText.formatTimestamp(System.currentTimeMillis())) + ",\"table\":"
                + json(options.table()) + ",\"target\":" + json(options.target()) + ",\"status\":" + status
                + ",\"reason\":" + json(reason) + ",\"response\":" + json(answer) + ",\"key\":" + json(key)
                + ",\"body\":" + json(new String(body, StandardCharsets.UTF_8)) + "}\n";
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.flush();
        LOG.warn("job={} table={}: {}: {}; request kept in dead-letter file {} ({} so far)", job, options.table(),
                options.target(), reason, path, written.incrementAndGet());
    }

    private static String json(String s) {
        return JsonValueWriter.toJson(STRING, s);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
