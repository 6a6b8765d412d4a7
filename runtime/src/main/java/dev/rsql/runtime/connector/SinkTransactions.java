package dev.rsql.runtime.connector;

/** Answers for a job's transactional sinks whether a transaction left open (e.g. by a crashed process) is committed. */
public interface SinkTransactions {

    enum Outcome { COMMIT, ROLLBACK, UNKNOWN }

    /**
     * The fate of {@code transactionId} (a value {@link SinkWriterContext#transactionId()} returned); UNKNOWN while it
     * may still commit. Called from client threads; must not block long.
     */
    Outcome outcome(String transactionId);

    /**
     * Whether the task that wrote {@code transactionId} runs in this process now. The broker may have two copies of
     * one half out for checking at once, and two processes each committing one would store the row twice: only the
     * one running the task commits.
     */
    default boolean writerRunsHere(String transactionId) {
        return true;
    }

    /**
     * Whether the writer of {@code transactionId} still runs here in the same incarnation (not moved away and back):
     * only then has no other process's check been able to commit its halves.
     */
    default boolean writtenByLiveWriter(String transactionId) {
        return writerRunsHere(transactionId);
    }
}
