package dev.rsql.examples;

import dev.rsql.sdk.dsl.StreamBuilder;
import dev.rsql.sdk.dsl.Window;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A rule over sensor readings from the {@code datagen} connector: readings above a threshold are alerts, counted per
 * sensor in 2-second event-time windows (readings come up to 1 s late, the watermark waits that long). The same
 * alerts are also counted by a SQL query over the stream, to show both on one graph.
 */
public final class RuleFilter {

    /** A sensor reading; its fields are the source table's columns. */
    public record Reading(String sensor, double temperature, Instant ts) {
    }

    /** The alerts of one sensor in one window. */
    public record Alerts(String sensor, long alerts, Instant windowStart) {
    }

    public static void main(String[] args) throws Exception {
        double threshold = args.length > 0 ? Double.parseDouble(args[0]) : 35.0;
        StreamBuilder builder = new StreamBuilder("rule-filter");
        var alerts = builder.source("readings", Reading.class, Map.of(
                        "connector", "datagen", "number-of-rows", "5000", "rows-per-second", "1000", "seed", "7",
                        "fields.sensor.values", "s1,s2,s3", "fields.temperature.min", "10",
                        "fields.temperature.max", "40", "fields.ts.max-past", "1000"))
                .filter(r -> r.temperature() > threshold)
                .assignTimestamps(r -> r.ts().toEpochMilli(), Duration.ofSeconds(1));
        alerts.keyBy(Reading::sensor, String.class)
                .window(Window.tumbling(Duration.ofSeconds(2)))
                .count()
                .map(w -> new Alerts(w.key(), w.value(), Instant.ofEpochMilli(w.windowStart())), Alerts.class)
                .print("alerts");
        builder.registerTable("alerts", alerts);
        builder.sqlQuery("SELECT sensor, COUNT(*) AS alerts, MAX(temperature) AS hottest FROM alerts GROUP BY sensor",
                        Hottest.class)
                .print("per-sensor");
        Run.toEnd(builder.build());
    }

    /** All alerts of a sensor so far, and its hottest reading. */
    public record Hottest(String sensor, long alerts, double hottest) {
    }
}
