package dev.rsql.runtime.state;

/**
 * Turns state values into bytes and back. Deterministic: equal values give equal bytes (keys are compared and hashed
 * as bytes). Instances are immutable and may be shared by the operators of all tasks.
 */
public interface TypeSerializer<T> {

    byte[] serialize(T value);

    T deserialize(byte[] bytes);
}
