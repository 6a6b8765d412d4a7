package dev.rsql.runtime.operator;

import dev.rsql.runtime.state.KeyedValueState;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.state.RowSerializer;
import dev.rsql.runtime.state.TimerService;
import dev.rsql.runtime.types.DataType;

import java.util.List;

/**
 * Idle-state retention of an operator's keys ({@code table.exec.state.ttl}): when each key was last touched, and
 * processing-time timers that forget a key untouched for the TTL, without output, as in Flink. Timers are coalesced to
 * a tenth of the TTL, so a busy key holds few of them.
 */
public final class KeyTtl {

    /** Drops every row the operator keeps for a key. */
    @FunctionalInterface
    public interface Forget {
        void forget(byte[] key) throws Exception;
    }

    private final long ttl;
    private KeyedValueState<Object[]> touched;
    private TimerService timers;
    private OperatorContext context;

    /** @param ttl milliseconds; 0 keeps keys forever */
    public KeyTtl(long ttl) {
        this.ttl = ttl;
    }

    public void open(OperatorContext context, String operatorId) {
        this.context = context;
        touched = context.stateBackend().valueState(operatorId, "touched",
                new RowSerializer(List.of(DataType.of(DataType.Kind.BIGINT).notNull())));
        timers = context.stateBackend().timerService(operatorId);
        if (ttl > 0) {
            requestNextTimer();
        }
    }

    /** Before a key is read: forgets it if it expired, though its timer has not fired yet. */
    public void expireIfIdle(byte[] key, long now, Forget forget) throws Exception {
        if (ttl > 0) {
            Object[] last = touched.get(key, Namespaces.EMPTY);
            if (last != null && (Long) last[0] + ttl <= now) {
                forget(key, forget);
            }
        }
    }

    /** After a key changed: it expires a TTL from now. */
    public void touch(byte[] key, long now) {
        if (ttl > 0) {
            touched.put(key, Namespaces.EMPTY, new Object[] {now});
            long bucket = Math.max(1, ttl / 10);
            long at = (now + ttl + bucket - 1) / bucket * bucket;
            timers.registerProcessingTimeTimer(at, key, Namespaces.EMPTY);
            context.requestProcessingTime(at);
        }
    }

    public void onProcessingTime(long now, Forget forget) throws Exception {
        if (ttl <= 0) {
            return;
        }
        timers.fireProcessingTimeTimers(now, (time, key, ns) -> {
            Object[] last = touched.get(key, ns);
            if (last != null && (Long) last[0] + ttl <= now) {
                forget(key, forget);
            }
        });
        requestNextTimer();
    }

    private void forget(byte[] key, Forget forget) throws Exception {
        forget.forget(key);
        touched.remove(key, Namespaces.EMPTY);
    }

    private void requestNextTimer() {
        long next = timers.nextProcessingTime();
        if (next != Long.MAX_VALUE) {
            context.requestProcessingTime(next);
        }
    }
}
