package dev.rsql.runtime.exec.exchange;

import dev.rsql.runtime.operator.Operator;

/**
 * Where a task hands rows to the next stage of the job (the upstream end of an exchange): the in-process
 * {@link ExchangeWriter}, or a shuffle through RocketMQ.
 */
public interface StageOutput extends Operator {

    /** The task's input has nothing to read for a while (or again has): leave it out of watermarks downstream. */
    void markIdle(boolean idle);

    /** True while the next stage has not caught up: the task should stop reading for now. */
    boolean isCongested();

    /** Passes checkpoint {@code checkpointId}'s barrier on, after every row before it. */
    void barrier(long checkpointId);

    /** This task sends nothing more (its input ended, or it was stopped). */
    void endOfStream();
}
