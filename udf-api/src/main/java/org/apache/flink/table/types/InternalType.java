package org.apache.flink.table.types;

/** A data type the engine knows directly (Blink API). */
public interface InternalType extends DataType {
}
