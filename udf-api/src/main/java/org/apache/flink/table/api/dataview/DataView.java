package org.apache.flink.table.api.dataview;

import java.io.Serializable;

/**
 * A collection field of an aggregate function's accumulator that the engine may keep in its state, element by
 * element, instead of inside the stored accumulator (as Flink's data views).
 */
public interface DataView extends Serializable {

    /** Removes every element. */
    void clear();
}
