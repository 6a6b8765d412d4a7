package dev.rsql.runtime.operator;

import dev.rsql.runtime.data.Row;

import java.util.List;

/** Where an operator sends its rows and watermarks: the next operator(s) of the task. */
public interface Output {

    void emit(Row row) throws Exception;

    /** Event time has reached {@code watermark}: no row with an earlier time should follow. */
    void emitWatermark(long watermark) throws Exception;

    /** Sends everything to each of the outputs, in order. */
    static Output broadcast(List<Output> outputs) {
        if (outputs.size() == 1) {
            return outputs.get(0);
        }
        Output[] all = outputs.toArray(new Output[0]);
        return new Output() {
            @Override
            public void emit(Row row) throws Exception {
                for (Output o : all) {
                    o.emit(row);
                }
            }

            @Override
            public void emitWatermark(long watermark) throws Exception {
                for (Output o : all) {
                    o.emitWatermark(watermark);
                }
            }
        };
    }

    /** Drops everything (a branch that leads to no sink). */
    Output DISCARD = new Output() {
        @Override
        public void emit(Row row) {
        }

        @Override
        public void emitWatermark(long watermark) {
        }
    };
}
