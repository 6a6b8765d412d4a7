package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;

/**
 * One step of a task's pipeline. An instance belongs to one task and is only called from the thread running that
 * task, so it needs no locks.
 */
public interface Operator {

    default void open(OperatorContext context) throws Exception {
    }

    void process(Row row) throws Exception;

    /** Every input of the task has ended (bounded sources): emit whatever is still held. */
    default void endOfInput() throws Exception {
    }

    /** Before a checkpoint: hand everything buffered to the sinks and make sure they stored it. */
    default void flush() throws Exception {
    }

    default void close() throws Exception {
    }
}
