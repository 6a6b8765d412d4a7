package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;

import java.util.List;

/** Where an operator sends its rows: the next operator(s) of the task. */
public interface Output {

    void emit(Row row) throws Exception;

    /** Sends every row to each of the outputs, in order. */
    static Output broadcast(List<Output> outputs) {
        if (outputs.size() == 1) {
            return outputs.get(0);
        }
        Output[] all = outputs.toArray(new Output[0]);
        return row -> {
            for (Output o : all) {
                o.emit(row);
            }
        };
    }

    /** Drops everything (a branch that leads to no sink). */
    Output DISCARD = row -> { };
}
