package dev.rsql.planner.catalog;

import dev.rsql.runtime.config.Options;

/**
 * The connector of a table whose WITH clause names none. rsqldb's scripts leave it out for RocketMQ tables (its new
 * era knew no other connector): a table with RocketMQ options ({@code topic}, {@code groupName} or
 * {@code consumerGroup}, {@code namesrvAddr}) reads or writes RocketMQ.
 */
final class ImpliedConnector {

    private static final String[] ROCKETMQ_KEYS = {"topic", "groupName", "consumerGroup", "namesrvAddr"};

    private ImpliedConnector() {
    }

    /** The connector the options imply, or null. */
    static String of(Options options) {
        for (String key : ROCKETMQ_KEYS) {
            if (options.containsKey(key)) {
                return "rocketmq";
            }
        }
        return null;
    }
}
