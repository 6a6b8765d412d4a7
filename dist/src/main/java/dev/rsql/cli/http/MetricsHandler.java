package dev.rsql.cli.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * {@code /metrics}: the process's jobs ({@link JobMetrics}) and the JVM (heap, GC, threads, CPU, from the Prometheus
 * client's JVM instrumentation) in Prometheus text format. Figures are read at scrape time from what the tasks
 * published; a scrape never waits for a task.
 */
public final class MetricsHandler implements HttpHandler {

    /** Where {@link HttpEndpoint} serves it. */
    public static final String PATH = "/metrics";

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public MetricsHandler(ProcessJobs jobs) {
        JvmMetrics.builder().register(registry);
        registry.register(new JobMetrics(jobs));
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        writer.write(body, registry.scrape());
        HttpEndpoint.sendReadOnly(exchange, 200, writer.getContentType(), body.toByteArray());
    }
}
