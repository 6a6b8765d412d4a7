package dev.rsql.sdk.dsl;

import dev.rsql.sdk.RsqlEngine;
import dev.rsql.sdk.RsqlJob;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The DSL job {@link DistributedDslTest} runs in child JVMs, one engine and instance each: events from a RocketMQ topic counted
 * per key and 2-second tumbling window into another topic. Every instance builds the same topology from this code;
 * the lambdas are never serialized. It prints its running task count whenever it changes, and stops gracefully when
 * its standard input closes.
 *
 * <p>Arguments: name server, input topic, output topic, instance id, state directory.
 */
public final class DistributedCountJob {

    static final long WINDOW_MS = 2_000;
    static final long WATERMARK_DELAY_MS = 500;
    static final String JOB = "dsl-distributed-count";

    record Event(String k, long ts) {
    }

    record WindowCount(String k, long count, long windowStart) {
    }

    private DistributedCountJob() {
    }

    static Topology topology(String input, String output) {
        StreamBuilder b = new StreamBuilder(JOB, Map.of("execution.mode", "distributed"));
        b.source("events", Event.class, Map.of("connector", "rocketmq", "topic", input, "format", "json"))
                .assignTimestamps(Event::ts, Duration.ofMillis(WATERMARK_DELAY_MS))
                .keyBy(Event::k, String.class)
                .window(Window.tumbling(Duration.ofMillis(WINDOW_MS)))
                .count()
                .map(w -> new WindowCount(w.key(), w.value(), w.windowStart()), WindowCount.class)
                .to("window_counts", Map.of("connector", "rocketmq", "topic", output, "format", "json"));
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("rocketmq.namesrv", args[0]);
        settings.put("instance.id", args[3]);
        settings.put("state.dir", args[4]);
        settings.put("checkpoint.interval", "300ms");
        settings.put("worker.threads", "2");
        settings.put("shuffle.queues", "4");
        settings.put("source.idle-timeout", "0");
        RsqlEngine engine = RsqlEngine.builder().settings(settings).build();
        RsqlJob job = engine.submit(JOB, topology(args[1], args[2]));
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                while (in.readLine() != null) {
                    // only the end of the input matters
                }
            } catch (Exception e) {
                // a broken pipe: the test is gone, stop as well
            }
            job.stop();
        }, "stop-on-stdin-eof");
        stdin.setDaemon(true);
        stdin.start();
        long reported = -1;
        while (!job.awaitTermination(Duration.ofMillis(200))) {
            long running = job.status().tasks().stream().filter(t -> t.state().equals("RUNNING")).count();
            if (running != reported) {
                System.out.println("RUNNING TASKS " + running);
                System.out.flush();
                reported = running;
            }
        }
        System.out.println("ENDED " + job.state() + job.failure().map(f -> " " + f).orElse(""));
        engine.close();
        System.exit(job.failure().isPresent() ? 1 : 0);
    }
}
