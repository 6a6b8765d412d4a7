package org.apache.flink.table.types;

/** An atomic type with a Java primitive counterpart (Blink API). */
public abstract class PrimitiveType extends AtomicType {

    private static final long serialVersionUID = 1L;
}
