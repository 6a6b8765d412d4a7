package dev.rsql.runtime.connector;

/** Answers for a job's transactional sinks whether a transaction left open (e.g. by a crashed process) is committed. */
public interface SinkTransactions {

    enum Outcome { COMMIT, ROLLBACK, UNKNOWN }

    /**
     * The fate of {@code transactionId} (a value {@link SinkWriterContext#transactionId()} returned); UNKNOWN while it
     * may still commit. Called from client threads; must not block long.
     */
    Outcome outcome(String transactionId);
}
