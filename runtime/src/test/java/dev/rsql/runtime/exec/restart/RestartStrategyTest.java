package dev.rsql.runtime.exec.restart;

import dev.rsql.runtime.config.ConfigException;
import dev.rsql.runtime.config.Options;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RestartStrategyTest {

    static RestartStrategy strategy(Map<String, String> settings) {
        return RestartStrategy.from(new Options(settings));
    }

    static List<Long> delays(RestartStrategy s, int n, long ranMillis) {
        List<Long> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            d.add(s.nextDelayMillis(ranMillis));
        }
        return d;
    }

    @Test
    void exponentialDelayByDefaultDoublingFromOneSecondUpToOneMinute() {
        RestartStrategy s = strategy(Map.of("restart-strategy.exponential-delay.jitter-factor", "0"));
        assertEquals(List.of(1000L, 2000L, 4000L, 8000L, 16000L, 32000L, 60000L, 60000L), delays(s, 8, 10));
    }

    @Test
    void anAttemptThatRanLongEnoughStartsAgainAtTheInitialBackoff() {
        RestartStrategy s = strategy(Map.of("restart-strategy.exponential-delay.jitter-factor", "0",
                "restart-strategy.exponential-delay.reset-backoff-threshold", "5 min"));
        assertEquals(List.of(1000L, 2000L, 4000L), delays(s, 3, 1000));
        assertEquals(1000L, s.nextDelayMillis(5 * 60_000));
        assertEquals(2000L, s.nextDelayMillis(10));
    }

    @Test
    void flinksSettingsAreHonoured() {
        RestartStrategy s = strategy(Map.of("restart-strategy.type", "exponential-delay",
                "restart-strategy.exponential-delay.initial-backoff", "100ms",
                "restart-strategy.exponential-delay.max-backoff", "1s",
                "restart-strategy.exponential-delay.backoff-multiplier", "3",
                "restart-strategy.exponential-delay.jitter-factor", "0",
                "restart-strategy.exponential-delay.attempts-before-reset-backoff", "4"));
        assertEquals(List.of(100L, 300L, 900L, 1000L, -1L), delays(s, 5, 10));
        assertEquals(100L, s.nextDelayMillis(Long.MAX_VALUE), "reset after the default hour");
    }

    @Test
    void jitterVariesEachWaitWithinItsFactor() {
        RestartStrategy s = strategy(Map.of("restart-strategy.exponential-delay.max-backoff", "1s",
                "restart-strategy.exponential-delay.jitter-factor", "0.5"));
        s.nextDelayMillis(10);
        for (long d : delays(s, 50, 10).subList(1, 50)) {
            assertTrue(d >= 500 && d <= 1500, "delay " + d);
        }
    }

    @Test
    void fixedDelayAndNone() {
        assertEquals(List.of(250L, 250L, -1L), delays(strategy(Map.of("restart-strategy.type", "fixed-delay",
                "restart-strategy.fixed-delay.delay", "250ms", "restart-strategy.fixed-delay.attempts", "2")), 3, 10));
        assertEquals(-1L, strategy(Map.of("restart-strategy.type", "none")).nextDelayMillis(10));
        assertEquals(-1L, strategy(Map.of("restart-strategy", "disable")).nextDelayMillis(10));
    }

    @Test
    void badSettingsAreConfigurationErrors() {
        assertThrows(ConfigException.class, () -> strategy(Map.of("restart-strategy.type", "failure-rate")));
        assertThrows(ConfigException.class, () -> strategy(Map.of(
                "restart-strategy.exponential-delay.backoff-multiplier", "0.5")));
        assertThrows(ConfigException.class, () -> strategy(Map.of(
                "restart-strategy.exponential-delay.jitter-factor", "2")));
        assertThrows(ConfigException.class, () -> strategy(Map.of(
                "restart-strategy.exponential-delay.initial-backoff", "0s")));
    }
}
