package dev.rsql.runtime.connector.datagen;

import java.util.SplittableRandom;

/** Produces the values of one column for one shard. Not thread-safe: one instance per shard reader. */
interface FieldGenerator {

    /**
     * @param rnd   the shard's random source
     * @param row   index of the row within the shard
     * @param now   the current time in epoch milliseconds
     */
    Object next(SplittableRandom rnd, long row, long now);
}
