package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a job waits before it restarts after a transient failure, and when it gives up: Flink's restart strategies
 * with Flink's setting names (in {@code conf/rsql.conf} or per job with {@code SET}).
 *
 * <ul>
 *   <li>{@code restart-strategy.type = exponential-delay} (default): waits {@code .initial-backoff} (1 s), then
 *       {@code .backoff-multiplier} (2) times longer after each further failure, at most {@code .max-backoff}
 *       (1 min), each wait varied by up to {@code .jitter-factor} (0.1) of itself; an attempt that ran
 *       {@code .reset-backoff-threshold} (1 h) before it failed starts again at the initial back-off; gives up after
 *       {@code .attempts-before-reset-backoff} (unlimited) failures without such a reset.</li>
 *   <li>{@code fixed-delay}: waits {@code restart-strategy.fixed-delay.delay} (1 s) each time, gives up after
 *       {@code .attempts} (unlimited) restarts.</li>
 *   <li>{@code none} ({@code off}, {@code disable}): the first failure ends the job.</li>
 * </ul>
 *
 * One instance per job; not thread-safe (the job's restarts are decided one after the other).
 */
public abstract class RestartStrategy {

    static final String PREFIX = "restart-strategy.";

    /** The strategy the job's settings ask for. */
    public static RestartStrategy from(Options config) {
        String type = config.getOrDefault("exponential-delay", PREFIX + "type", "restart-strategy")
                .trim().toLowerCase(Locale.ROOT);
        switch (type) {
            case "exponential-delay":
            case "exponentialdelay":
                return new ExponentialDelay(config);
            case "fixed-delay":
            case "fixeddelay":
                return new FixedDelay(config);
            case "none":
            case "off":
            case "disable":
                return new None();
            default:
                throw new ConfigException("restart-strategy.type must be 'exponential-delay', 'fixed-delay' or"
                        + " 'none', got '" + type + "'");
        }
    }

    /**
     * The wait before the next restart after a failure of an attempt that ran {@code ranMillis}, or -1 when the job
     * is to end instead.
     */
    public abstract long nextDelayMillis(long ranMillis);

    /** The setting, for the log. */
    public abstract String describe();

    private static Duration positive(Options config, String key, Duration defaultValue) {
        Duration d = config.getDuration(defaultValue, key);
        if (d.isNegative() || d.isZero()) {
            throw new ConfigException("option '" + key + "' must be a positive duration, got " + d);
        }
        return d;
    }

    private static int attempts(Options config, String key) {
        int n = config.getInt(Integer.MAX_VALUE, key);
        if (n < 0) {
            throw new ConfigException("option '" + key + "' must not be negative, got " + n);
        }
        return n;
    }

    static final class ExponentialDelay extends RestartStrategy {
        private static final String P = PREFIX + "exponential-delay.";

        private final long initialMillis;
        private final long maxMillis;
        private final double multiplier;
        private final long resetThresholdMillis;
        private final double jitter;
        private final int attemptsBeforeReset;
        private long backoffMillis;
        private int attempts;

        ExponentialDelay(Options config) {
            initialMillis = positive(config, P + "initial-backoff", Duration.ofSeconds(1)).toMillis();
            maxMillis = Math.max(initialMillis, positive(config, P + "max-backoff", Duration.ofMinutes(1)).toMillis());
            multiplier = config.getDouble(2.0, P + "backoff-multiplier");
            if (!(multiplier >= 1.0)) {
                throw new ConfigException("option '" + P + "backoff-multiplier' must be at least 1, got " + multiplier);
            }
            resetThresholdMillis = positive(config, P + "reset-backoff-threshold", Duration.ofHours(1)).toMillis();
            jitter = config.getDouble(0.1, P + "jitter-factor");
            if (!(jitter >= 0 && jitter <= 1)) {
                throw new ConfigException("option '" + P + "jitter-factor' must be between 0 and 1, got " + jitter);
            }
            attemptsBeforeReset = attempts(config, P + "attempts-before-reset-backoff");
            backoffMillis = initialMillis;
        }

        @Override
        public long nextDelayMillis(long ranMillis) {
            if (ranMillis >= resetThresholdMillis) {
                backoffMillis = initialMillis;
                attempts = 0;
            }
            if (attempts >= attemptsBeforeReset) {
                return -1;
            }
            attempts++;
            long delay = backoffMillis;
            backoffMillis = (long) Math.min(maxMillis, backoffMillis * multiplier);
            if (jitter > 0) {
                long spread = (long) (delay * jitter);
                delay += ThreadLocalRandom.current().nextLong(-spread, spread + 1);
            }
            return Math.max(0, delay);
        }

        @Override
        public String describe() {
            return "exponential-delay " + initialMillis + " ms x" + multiplier + " up to " + maxMillis + " ms";
        }
    }

    static final class FixedDelay extends RestartStrategy {
        private static final String P = PREFIX + "fixed-delay.";

        private final long delayMillis;
        private final int maxAttempts;
        private int attempts;

        FixedDelay(Options config) {
            delayMillis = positive(config, P + "delay", Duration.ofSeconds(1)).toMillis();
            maxAttempts = attempts(config, P + "attempts");
        }

        @Override
        public long nextDelayMillis(long ranMillis) {
            if (attempts >= maxAttempts) {
                return -1;
            }
            attempts++;
            return delayMillis;
        }

        @Override
        public String describe() {
            return "fixed-delay " + delayMillis + " ms" + (maxAttempts == Integer.MAX_VALUE ? ""
                    : ", " + maxAttempts + " attempts");
        }
    }

    static final class None extends RestartStrategy {
        @Override
        public long nextDelayMillis(long ranMillis) {
            return -1;
        }

        @Override
        public String describe() {
            return "none";
        }
    }
}
