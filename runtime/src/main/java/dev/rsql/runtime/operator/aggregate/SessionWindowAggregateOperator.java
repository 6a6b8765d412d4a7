package dev.rsql.runtime.operator.aggregate;

import dev.rsql.runtime.data.Row;
import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.graph.WindowAggregateNode;
import dev.rsql.runtime.operator.OperatorContext;
import dev.rsql.runtime.operator.Output;
import dev.rsql.runtime.state.Namespaces;
import dev.rsql.runtime.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * A GROUP BY over SESSION windows. Each row comes with its proto-session {@code [time, time + gap)}; the sessions of a
 * key that it touches are merged into one, accumulators merged in place. A key's open sessions (usually one or two)
 * are one small state value, a list ordered by start of (start, end, row count, what was emitted, fired, pending early
 * fire, timer, accumulators as a nested row); the values of the active keys stay in the heap ({@link KeyedStateCache})
 * and are written back at checkpoints, so a row of an active key costs no state access whatever the key's history.
 *
 * <p>Timers are per key (namespace empty), at a session's last millisecond. A session that grows keeps its timer;
 * when the timer fires the session registers one at its new end instead, so extending a session costs nothing.
 * Emission follows {@link EmitSpec} as for other windows: on watermark, early, and late within the allowed lateness;
 * a row bridging sessions already emitted takes their results back (-D) and the merged session is emitted anew.
 */
public final class SessionWindowAggregateOperator extends KeyedWindowAggregation {

    private static final int START = 0;
    private static final int END = 1;
    private static final int COUNT = 2;
    private static final int EMITTED = 3;
    private static final int FIRED = 4;
    private static final int PENDING = 5;
    private static final int TIMER = 6;
    private static final int ACC = 7;

    private KeyedStateCache<List<Object[]>> sessions;

    public SessionWindowAggregateOperator(WindowAggregateNode node, Output output) {
        super(node, output);
    }

    @Override
    void openState(OperatorContext context) {
        List<DataType> stored = new ArrayList<>();
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(WindowResults.valuesType(node));
        stored.add(DataType.of(DataType.Kind.BOOLEAN).notNull());
        stored.add(DataType.of(DataType.Kind.BIGINT));
        stored.add(DataType.of(DataType.Kind.BIGINT).notNull());
        stored.add(WindowResults.accumulatorsType(accumulators));
        sessions = keyedWindowLists(context, "sessions", stored);
    }

    @Override
    public void process(Row row) throws Exception {
        Object[] in = row.fields();
        long rowStart = (Long) in[node.windowStartField()];
        long rowEnd = (Long) in[node.windowEndField()];
        Object[] key = groupKey(in);
        KeyedStateCache.Entry<List<Object[]>> entry = sessions.get(keySerializer.serialize(key));
        List<Object[]> list = entry.value == null ? new ArrayList<>(2) : entry.value;
        // The sessions the row touches are consecutive in the list (sorted by start, disjoint).
        int first = 0;
        while (first < list.size() && (Long) list.get(first)[END] < rowStart) {
            first++;
        }
        int last = first;
        long start = rowStart;
        long end = rowEnd;
        while (last < list.size() && (Long) list.get(last)[START] <= rowEnd) {
            start = Math.min(start, (Long) list.get(last)[START]);
            end = Math.max(end, (Long) list.get(last)[END]);
            last++;
        }
        if (isLate(end)) {
            lateRows.late(in, start, end, watermark);
            return;
        }
        Object[] session;
        if (first == last) {
            if (!row.kind().isAccumulate()) {
                return;     // takes back a row of no open session
            }
            session = newSession(start, end);
            registerTimer(end - 1, entry.key);
            session[TIMER] = end - 1;
            list.add(first, session);
        } else {
            session = merge(entry.key, list, first, last, start, end);
        }
        entry.value = list;
        entry.changed();
        session[COUNT] = (Long) session[COUNT] + accumulate((Object[]) session[ACC], row);
        if ((Long) session[COUNT] == 0) {
            list.remove(session);
            if (session[EMITTED] != null) {
                results.retract(entry.key, (Object[]) session[EMITTED], start, end);
            }
            entry.value = list.isEmpty() ? null : list;
            return;
        }
        boolean fired = (Boolean) session[FIRED];
        if (fired ? emit.hasLateFiring() : emit.hasEarlyFiring()) {
            long delay = fired ? emit.lateDelay() : emit.earlyDelay();
            if (delay == 0) {
                session[EMITTED] = results.emit(entry.key, (Object[]) session[ACC], (Object[]) session[EMITTED],
                        start, end);
            } else if (session[PENDING] == null) {
                long at = System.currentTimeMillis() + delay;
                session[PENDING] = at;
                timers.registerProcessingTimeTimer(at, entry.key, Namespaces.EMPTY);
                context.requestProcessingTime(at);
            }
        }
    }

    private Object[] newSession(long start, long end) {
        Object[] session = new Object[ACC + 1];
        session[START] = start;
        session[END] = end;
        session[COUNT] = 0L;
        session[FIRED] = false;
        session[ACC] = accumulators.create();
        return session;
    }

    /**
     * Merges sessions {@code first .. last - 1} of the list into the first, which becomes {@code [start, end)}. Results
     * already emitted for them are taken back. The merged session keeps the earliest timer and pending early fire of
     * the merged ones (each registered and not yet due), so it needs no new timer.
     */
    private Object[] merge(byte[] keyBytes, List<Object[]> list, int first, int last, long start, long end)
            throws Exception {
        Object[] target = list.get(first);
        for (int i = first; i < last; i++) {
            Object[] s = list.get(i);
            if (s[EMITTED] != null) {
                results.retract(keyBytes, (Object[]) s[EMITTED], (Long) s[START], (Long) s[END]);
                s[EMITTED] = null;
            }
            if (i == first) {
                continue;
            }
            accumulators.merge((Object[]) target[ACC], (Object[]) s[ACC]);
            target[COUNT] = (Long) target[COUNT] + (Long) s[COUNT];
            target[FIRED] = (Boolean) target[FIRED] || (Boolean) s[FIRED];
            target[TIMER] = Math.min((Long) target[TIMER], (Long) s[TIMER]);
            if (s[PENDING] != null && (target[PENDING] == null || (Long) s[PENDING] < (Long) target[PENDING])) {
                target[PENDING] = s[PENDING];
            }
        }
        list.subList(first + 1, last).clear();
        target[START] = start;
        target[END] = end;
        return target;
    }

    @Override
    void onEventTime(long time, byte[] keyBytes, byte[] namespace) throws Exception {
        onTimer(time, keyBytes);
    }

    /**
     * A session timer of the key is due at {@code time}: sessions that ended by then fire (and are dropped, or kept
     * until the allowed lateness has passed), those whose lateness passed are dropped, and a session whose timer this
     * was but that grew since registers one at its new end.
     */
    private void onTimer(long time, byte[] keyBytes) throws Exception {
        KeyedStateCache.Entry<List<Object[]>> entry = sessions.get(keyBytes);
        if (entry.value == null) {
            return;
        }
        List<Object[]> list = entry.value;
        for (int i = 0; i < list.size(); i++) {
            Object[] s = list.get(i);
            long end = (Long) s[END];
            boolean fired = (Boolean) s[FIRED];
            if (!fired && end - 1 <= time) {
                s[EMITTED] = results.emit(keyBytes, (Object[]) s[ACC], (Object[]) s[EMITTED], (Long) s[START], end);
                s[FIRED] = true;
                s[PENDING] = null;
                fired = true;
                entry.changed();
            }
            long due = fired ? end - 1 + (eventTime ? emit.allowedLateness() : 0) : end - 1;
            if (fired && due <= time) {
                list.remove(i--);
                entry.changed();
            } else if ((Long) s[TIMER] <= time) {
                registerTimer(due, keyBytes);
                s[TIMER] = due;
                entry.changed();
            }
        }
        if (list.isEmpty()) {
            entry.value = null;
        }
    }

    @Override
    public void onProcessingTime(long now) throws Exception {
        timers.fireProcessingTimeTimers(now, (time, keyBytes, ns) -> {
            firePending(time, keyBytes);
            if (!eventTime) {
                onTimer(time, keyBytes);
            }
        });
        requestNextProcessingTime();
    }

    /** Early or late results due at {@code time}. */
    private void firePending(long time, byte[] keyBytes) throws Exception {
        KeyedStateCache.Entry<List<Object[]>> entry = sessions.get(keyBytes);
        if (entry.value == null) {
            return;
        }
        for (Object[] s : entry.value) {
            if (s[PENDING] != null && (Long) s[PENDING] <= time) {
                s[PENDING] = null;
                s[EMITTED] = results.emit(keyBytes, (Object[]) s[ACC], (Object[]) s[EMITTED], (Long) s[START],
                        (Long) s[END]);
                entry.changed();
            }
        }
    }

    @Override
    public void endOfInput() throws Exception {
        if (!eventTime) {
            // Processing-time sessions still open when a bounded input ends are fired now.
            timers.fireProcessingTimeTimers(Long.MAX_VALUE, (time, keyBytes, ns) -> onTimer(Long.MAX_VALUE, keyBytes));
        }
    }

    @Override
    void flushState() throws Exception {
        sessions.flush();
    }
}
