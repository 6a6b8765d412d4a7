package org.apache.flink.table.types;

import java.io.Serializable;

/** A SQL data type as Blink's UDF API describes it ({@link DataTypes} has the instances). */
public interface DataType extends Serializable {
}
