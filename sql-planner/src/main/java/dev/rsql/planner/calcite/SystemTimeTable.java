package dev.rsql.planner.calcite;

import org.apache.calcite.schema.TemporalTable;

/**
 * A table that may be named in {@code FOR SYSTEM_TIME AS OF}. Calcite's validator only accepts temporal tables
 * there; whether the table can be joined that way (a versioned table with a primary key and a watermark, or a
 * dimension table) is the physical planner's decision, where the error can say why. Streams have no system-time
 * period columns, hence the empty names.
 */
public interface SystemTimeTable extends TemporalTable {

    @Override
    default String getSysStartFieldName() {
        return "";
    }

    @Override
    default String getSysEndFieldName() {
        return "";
    }
}
