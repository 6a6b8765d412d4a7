package dev.rsql.planner.translate;

import dev.rsql.runtime.graph.EmitSpec;
import dev.rsql.runtime.table.TableDescriptor;

/**
 * Job settings that shape stateful operators: idle state retention of non-window aggregations, the allowed
 * lateness of windows, the table late rows go to (null for none), and the EMIT strategy of the INSERT being
 * translated; how non-window GROUP BYs run (mini-batch, phases, distinct split).
 */
public record StreamSettings(long stateTtlMillis, TableDescriptor lateDataTable, EmitSpec emit,
                             AggregationSettings aggregation) {

    public StreamSettings(long stateTtlMillis, TableDescriptor lateDataTable, EmitSpec emit) {
        this(stateTtlMillis, lateDataTable, emit, AggregationSettings.DEFAULT);
    }

    public StreamSettings withEmit(EmitSpec newEmit) {
        return new StreamSettings(stateTtlMillis, lateDataTable, newEmit, aggregation);
    }
}
