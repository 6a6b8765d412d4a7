package dev.rsql.runtime.state.store;

import dev.rsql.runtime.exec.StateBackendType;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.TimerService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ParameterizedClass
@EnumSource(StateBackendType.class)
class StoreTimerServiceTest {

    static final byte[] NS = Namespaces.EMPTY;

    @Parameter
    StateBackendType type;

    @TempDir
    Path dir;

    StoreStateBackend backend;
    StoreTimerService timers;

    @BeforeEach
    void open() throws Exception {
        backend = type.openBackend(dir.resolve("task"), null, 64);
        timers = (StoreTimerService) backend.timerService("window-op");
    }

    @AfterEach
    void close() {
        backend.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Records fired timers as "time:key". */
    static final class Recorder implements TimerService.TimerHandler {
        final List<String> fired = new ArrayList<>();

        @Override
        public void onTimer(long time, byte[] key, byte[] namespace) {
            fired.add(time + ":" + new String(key, StandardCharsets.UTF_8)
                    + (namespace.length == 0 ? "" : "@" + Namespaces.windowStart(namespace)));
        }
    }

    List<String> fireEvent(long watermark) throws Exception {
        Recorder r = new Recorder();
        timers.fireEventTimeTimers(watermark, r);
        return r.fired;
    }

    @Test
    void firesInTimeOrderIncludingNegativeTimes() throws Exception {
        long[] times = {5, -3, 100, Long.MIN_VALUE, 0, -1000, 7, Long.MAX_VALUE, -1};
        for (long t : times) {
            timers.registerEventTimeTimer(t, b("k" + t), NS);
        }
        assertEquals(List.of(Long.MIN_VALUE + ":k" + Long.MIN_VALUE, "-1000:k-1000", "-3:k-3", "-1:k-1", "0:k0"),
                fireEvent(0));
        assertEquals(List.of("5:k5", "7:k7", "100:k100"), fireEvent(1000));
        assertEquals(List.of(), fireEvent(1000));
        assertEquals(List.of(Long.MAX_VALUE + ":k" + Long.MAX_VALUE), fireEvent(Long.MAX_VALUE));
    }

    @Test
    void laterRegisteredEarlierTimerFiresFirst() throws Exception {
        timers.registerEventTimeTimer(10, b("a"), NS);
        timers.registerEventTimeTimer(5, b("b"), NS);
        timers.registerEventTimeTimer(7, b("c"), Namespaces.window(0, 7));
        assertEquals(List.of("5:b", "7:c@0", "10:a"), fireEvent(20));
    }

    @Test
    void duplicatesCollapseAndDeletesWork() throws Exception {
        timers.registerEventTimeTimer(10, b("a"), NS);
        timers.registerEventTimeTimer(10, b("a"), NS);
        timers.registerEventTimeTimer(10, b("a"), Namespaces.window(0, 10)); // another namespace: another timer
        timers.registerEventTimeTimer(10, b("b"), NS);
        timers.registerEventTimeTimer(11, b("a"), NS);
        timers.deleteEventTimeTimer(10, b("b"), NS);
        timers.deleteEventTimeTimer(99, b("nope"), NS);
        assertEquals(List.of("10:a", "10:a@0", "11:a"), fireEvent(100));
    }

    @Test
    void firesOnlyDueTimersAndNothingDueCostsNoSeek() throws Exception {
        for (int i = 0; i < 100; i++) {
            timers.registerEventTimeTimer(i * 10L, b("k" + i), NS);
        }
        long seeks = timers.seeks();
        List<String> fired = fireEvent(45);
        assertEquals(List.of("0:k0", "10:k1", "20:k2", "30:k3", "40:k4"), fired);
        assertEquals(seeks + 1, timers.seeks(), "one seek finds the due timers and the next one");
        seeks = timers.seeks();
        for (long wm = 46; wm < 50; wm++) {
            assertEquals(List.of(), fireEvent(wm));
        }
        assertEquals(seeks, timers.seeks(), "nothing due: no store access");
        assertEquals(List.of("50:k5"), fireEvent(50));

        // a deleted minimum leaves a stale lower bound: one seek, then exact again
        timers.deleteEventTimeTimer(60, b("k6"), NS);
        assertEquals(List.of(), fireEvent(65));
        seeks = timers.seeks();
        assertEquals(List.of(), fireEvent(69));
        assertEquals(seeks, timers.seeks());
        assertEquals(70, timers.nextEventTime());
    }

    @Test
    void dueTimersRegisteredWhileFiringFireInTheSameCall() throws Exception {
        timers.registerEventTimeTimer(10, b("a"), NS);
        timers.registerEventTimeTimer(20, b("b"), NS);
        timers.registerEventTimeTimer(30, b("c"), NS);
        List<String> fired = new ArrayList<>();
        timers.fireEventTimeTimers(25, (time, key, ns) -> {
            String k = new String(key, StandardCharsets.UTF_8);
            fired.add(time + ":" + k);
            if (k.equals("a")) {
                timers.registerEventTimeTimer(15, b("a2"), NS); // due, between a and b
                timers.registerEventTimeTimer(5, b("a0"), NS);  // due, earlier than the current one
                timers.registerEventTimeTimer(26, b("late"), NS); // not due
                timers.deleteEventTimeTimer(20, b("b"), NS);  // the next one in the batch
            }
            if (k.equals("a2")) {
                timers.registerEventTimeTimer(25, b("edge"), NS); // due exactly at the watermark
            }
        });
        assertEquals(List.of("10:a", "5:a0", "15:a2", "25:edge"), fired);
        assertEquals(List.of("26:late", "30:c"), fireEvent(30));
    }

    @Test
    void manyDueTimersAtOneTimeAcrossBatches() throws Exception {
        int n = 5000;
        for (int i = 0; i < n; i++) {
            timers.registerEventTimeTimer(1000, b(String.format("key-%05d", i)), Namespaces.window(0, 1000));
            timers.registerEventTimeTimer(2000 + i, b("later"), NS);
        }
        int[] count = {0};
        List<String> keys = new ArrayList<>();
        timers.fireEventTimeTimers(1000, (t, k, ns) -> {
            count[0]++;
            keys.add(new String(k, StandardCharsets.UTF_8));
            if (count[0] % 1000 == 0) {
                timers.registerEventTimeTimer(999, b("re-" + count[0]), NS); // forces a new seek mid-batch
            }
        });
        assertEquals(n + 5, count[0]);
        assertEquals(2000, timers.nextEventTime());
        long seeks = timers.seeks();
        assertEquals(List.of(), fireEvent(1999));
        assertEquals(seeks, timers.seeks());
        assertEquals(n, fireEvent(Long.MAX_VALUE).size());
        assertEquals(Long.MAX_VALUE, timers.nextEventTime());
    }

    @Test
    void processingTimeTimersAndNextProcessingTime() throws Exception {
        assertEquals(Long.MAX_VALUE, timers.nextProcessingTime());
        timers.registerProcessingTimeTimer(1_000, b("a"), NS);
        timers.registerProcessingTimeTimer(500, b("b"), NS);
        timers.registerEventTimeTimer(100, b("event"), NS); // another kind: not fired by processing time
        assertEquals(500, timers.nextProcessingTime());
        timers.deleteProcessingTimeTimer(500, b("b"), NS);
        assertEquals(1_000, timers.nextProcessingTime());

        Recorder r = new Recorder();
        timers.fireProcessingTimeTimers(999, r);
        assertEquals(List.of(), r.fired);
        timers.fireProcessingTimeTimers(1_000, r);
        assertEquals(List.of("1000:a"), r.fired);
        assertEquals(Long.MAX_VALUE, timers.nextProcessingTime());
        assertEquals(List.of("100:event"), fireEvent(100));
    }

    @Test
    void operatorsHaveSeparateTimers() throws Exception {
        TimerService other = backend.timerService("other-op");
        assertSame(other, backend.timerService("other-op"));
        timers.registerEventTimeTimer(1, b("k"), NS);
        other.registerEventTimeTimer(2, b("k"), NS);
        assertEquals(List.of("1:k"), fireEvent(10));
        Recorder r = new Recorder();
        other.fireEventTimeTimers(10, r);
        assertEquals(List.of("2:k"), r.fired);
    }

    @Test
    void handlerFailureKeepsRemainingTimers() throws Exception {
        timers.registerEventTimeTimer(1, b("a"), NS);
        timers.registerEventTimeTimer(2, b("b"), NS);
        assertThrows(IllegalStateException.class, () -> timers.fireEventTimeTimers(10, (t, k, ns) -> {
            throw new IllegalStateException("boom");
        }));
        assertEquals(List.of("2:b"), fireEvent(10));
        assertThrows(IllegalStateException.class, () -> {
            timers.registerEventTimeTimer(3, b("c"), NS);
            timers.fireEventTimeTimers(10, (t, k, ns) -> timers.fireEventTimeTimers(10, (t2, k2, ns2) -> { }));
        });
    }

    @Test
    void keysWithSeparatorsAndLongKeys() throws Exception {
        byte[] longKey = new byte[1000];
        longKey[999] = '&';
        timers.registerEventTimeTimer(1, b("a&&b&&1&&2"), Namespaces.window(-10, 1));
        timers.registerEventTimeTimer(1, longKey, NS);
        List<byte[]> keys = new ArrayList<>();
        timers.fireEventTimeTimers(1, (t, k, ns) -> keys.add(k));
        assertEquals(2, keys.size());
        assertTrue(keys.stream().anyMatch(k -> k.length == 1000 && k[999] == '&'));
    }

    static String entry(long time, String key) {
        return String.format("%08d:%s", time, key);
    }

    /** A change a handler makes to the timers: registers or deletes {@code key} at {@code at}. */
    interface Reaction {
        void apply(long at, String key, boolean register);
    }

    /** What the handler does on firing a {@code k} timer: maybe registers an {@code h} timer (due or not), maybe deletes one. */
    static void react(String e, long upTo, int salt, Reaction reaction) {
        if (e.contains(":h")) {
            return;     // the timers handlers register make no more: firing ends
        }
        int h = (e.hashCode() ^ salt) & 0x7fffffff;
        if (h % 3 == 0) {
            reaction.apply(Math.max(0, upTo - 4 + (h / 3) % 12), String.format("h%02d", (h / 7) % 10), true);
        }
        if (h % 5 == 0) {
            reaction.apply(Math.max(0, upTo - 4 + (h / 11) % 8), String.format("k%02d", (h / 13) % 30), false);
        }
    }

    /**
     * Random registrations, deletions and firings (whose handlers register and delete too), with the timers kept in
     * the heap written to RocksDB at random points, fire exactly as a sorted set of (time, key) does: buffered and
     * stored timers merge in one order, a timer in both fires once, a deleted stored timer never fires.
     */
    @Test
    void bufferedAndStoredTimersFireAsOneOrderedSet() throws Exception {
        for (int seed = 0; seed < 10; seed++) {
            Random r = new Random(seed);
            TreeSet<String> model = new TreeSet<>();
            long watermark = 0;
            for (int step = 0; step < 3000; step++) {
                int op = r.nextInt(100);
                long time = watermark + r.nextInt(40);
                String key = String.format("k%02d", r.nextInt(30));   // one length: the stored order is the model's
                if (op < 45) {
                    timers.registerEventTimeTimer(time, b(key), NS);
                    model.add(entry(time, key));
                } else if (op < 60) {
                    timers.deleteEventTimeTimer(time, b(key), NS);
                    model.remove(entry(time, key));
                } else if (op < 70) {
                    timers.writeBuffers();
                } else if (op < 85) {
                    watermark += r.nextInt(15);
                    long upTo = watermark;
                    int salt = r.nextInt();
                    Reaction onService = (at, k, register) -> {
                        if (register) {
                            timers.registerEventTimeTimer(at, b(k), NS);
                        } else {
                            timers.deleteEventTimeTimer(at, b(k), NS);
                        }
                    };
                    List<String> fired = new ArrayList<>();
                    timers.fireEventTimeTimers(upTo, (t, k, ns) -> {
                        String e = entry(t, new String(k, StandardCharsets.UTF_8));
                        fired.add(e);
                        react(e, upTo, salt, onService);
                    });
                    List<String> expected = new ArrayList<>();
                    while (!model.isEmpty() && Long.parseLong(model.first().substring(0, 8)) <= upTo) {
                        String e = model.pollFirst();
                        expected.add(e);
                        react(e, upTo, salt, (at, k, register) -> {
                            if (register) {
                                model.add(entry(at, k));
                            } else {
                                model.remove(entry(at, k));
                            }
                        });
                    }
                    assertEquals(expected, fired, "seed " + seed + ", step " + step);
                }
            }
            List<String> rest = new ArrayList<>();
            timers.fireEventTimeTimers(Long.MAX_VALUE / 2, (t, k, ns) ->
                    rest.add(entry(t, new String(k, StandardCharsets.UTF_8))));
            assertEquals(new ArrayList<>(model), rest, "seed " + seed);
            assertEquals(Long.MAX_VALUE, timers.nextEventTime());
        }
    }

    @Test
    void timersRegisteredAndFiredBetweenTwoWritesNeverReachTheStore() throws Exception {
        backend.enableChangeTracking();
        for (int i = 0; i < 1000; i++) {
            timers.registerEventTimeTimer(i, b("k" + i), NS);
        }
        assertEquals(1000, fireEvent(999).size());
        timers.registerEventTimeTimer(5000, b("kept"), NS);
        List<String> written = new ArrayList<>();
        backend.drainChanges((cf, k, v) -> {
            if (cf == StateColumnFamily.TIMERS) {
                written.add(HEX.formatHex(k));
            }
        });
        assertEquals(List.of(HEX.formatHex(new KeyBuffer().timer(StoreStateBackend.idOf("window-op"),
                StoreTimerService.EVENT_TIME, 5000, b("kept"), NS).copy())), written);
        assertEquals(List.of("5000:kept"), fireEvent(5000));
    }

    static final java.util.HexFormat HEX = java.util.HexFormat.of();
}
