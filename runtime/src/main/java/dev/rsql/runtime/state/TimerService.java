package dev.rsql.runtime.state;

/**
 * Timers of one operator in one task, kept in the task's state (so they survive a restore) and ordered by time, so
 * that firing reads only the timers that are due — never a scan of all state. A timer is identified by
 * (time, key, namespace); registering it twice keeps one.
 */
public interface TimerService {

    /** Called for each timer that is due, in time order; may register or delete timers. */
    @FunctionalInterface
    interface TimerHandler {
        void onTimer(long time, byte[] key, byte[] namespace) throws Exception;
    }

    void registerEventTimeTimer(long time, byte[] key, byte[] namespace);

    void deleteEventTimeTimer(long time, byte[] key, byte[] namespace);

    void registerProcessingTimeTimer(long time, byte[] key, byte[] namespace);

    void deleteProcessingTimeTimer(long time, byte[] key, byte[] namespace);

    /**
     * Removes and hands to the handler every event-time timer with {@code time <= watermark}, in time order, including
     * timers the handler registers while firing that are themselves due.
     */
    void fireEventTimeTimers(long watermark, TimerHandler handler) throws Exception;

    /** Like {@link #fireEventTimeTimers} for processing-time timers due at {@code now}. */
    void fireProcessingTimeTimers(long now, TimerHandler handler) throws Exception;

    /** Time of the earliest processing-time timer, or {@link Long#MAX_VALUE}: when the task must wake up next. */
    long nextProcessingTime();
}
